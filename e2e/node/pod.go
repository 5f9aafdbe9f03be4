package node

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
)

// podRunner runs one pod bound to the node: volumes, init containers in order, then the containers,
// restarts by the pod's restartPolicy, status reports, the deadline, deletion.
type podRunner struct {
	n       *Node
	uid     types.UID
	dir     string
	logDir  string
	podIP   string
	net     *podNet
	volumes map[string]string

	mu      sync.Mutex
	pod     *corev1.Pod
	ctrs    map[string]*container
	status  corev1.PodStatus
	deleted chan struct{} // closed when the pod has a deletionTimestamp
	gone    chan struct{} // closed when the pod object is gone from the API
	evict   chan string
	once    sync.Once
	goneOne sync.Once
	done    chan struct{}
}

func newPodRunner(n *Node, pod *corev1.Pod, podIP string) *podRunner {
	id := string(pod.UID)[:8]
	return &podRunner{
		n: n, uid: pod.UID, pod: pod.DeepCopy(), podIP: podIP,
		dir:    filepath.Join(n.cfg.RunDir, "pods", string(pod.UID)),
		logDir: filepath.Join(n.cfg.LogDir, "pods", pod.Namespace+"_"+pod.Name+"_"+id),
		ctrs:   map[string]*container{}, deleted: make(chan struct{}), gone: make(chan struct{}),
		evict: make(chan string, 1), done: make(chan struct{}),
	}
}

func (r *podRunner) logFile(ctr string) string { return filepath.Join(r.logDir, ctr+".log") }

// update takes a newer copy of the pod from the watch.
func (r *podRunner) update(pod *corev1.Pod) {
	r.mu.Lock()
	r.pod = pod.DeepCopy()
	r.mu.Unlock()
	if pod.DeletionTimestamp != nil {
		r.once.Do(func() { close(r.deleted) })
	}
}

func (r *podRunner) markGone() { r.goneOne.Do(func() { close(r.gone) }) }

func (r *podRunner) snapshot() *corev1.Pod {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pod.DeepCopy()
}

// run is the pod's life on the node.
func (r *podRunner) run(ctx context.Context) {
	defer close(r.done)
	defer r.cleanup()
	if err := os.MkdirAll(r.logDir, 0o755); err != nil {
		r.n.logf("pod %s: %v", r.key(), err)
		return
	}
	now := metav1.Now()
	r.status = corev1.PodStatus{
		Phase: corev1.PodPending, StartTime: &now, HostIP: "127.0.0.1", HostIPs: []corev1.HostIP{{IP: "127.0.0.1"}},
		PodIP: r.podIP, PodIPs: []corev1.PodIP{{IP: r.podIP}},
		Conditions: []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: now}},
	}
	r.setWaitingAll("ContainerCreating", "")
	r.push(ctx)
	outcome := r.start(ctx)
	if outcome == outcomeDeleted {
		r.terminate(ctx)
		return
	}
	// The pod has ended (or never could start): wait for its deletion.
	r.freeScratchVolumes()
	select {
	case <-r.deleted:
		r.terminate(ctx)
	case <-r.gone:
	case <-ctx.Done():
	}
}

type outcome int

const (
	outcomeEnded outcome = iota
	outcomeDeleted
)

// start prepares the pod and runs it until it ends, is deleted, evicted or passes its deadline.
func (r *podRunner) start(ctx context.Context) outcome {
	pod := r.snapshot()
	id := string(pod.UID)[:8]
	if release := r.n.held(pod); release != nil {
		r.n.logf("pod %s: %s", r.key(), HeldMessage)
		r.setWaitingAll("ContainerCreating", HeldMessage)
		r.push(ctx)
		select {
		case <-release:
			r.n.logf("pod %s: released", r.key())
		case <-r.deleted:
			return outcomeDeleted
		case <-r.gone:
			return outcomeDeleted
		}
	}
	// Volumes and the network: retried while the pod lives, as a kubelet keeps a pod ContainerCreating.
	for {
		err := r.prepare(ctx, pod, id)
		if err == nil {
			break
		}
		r.n.logf("pod %s: %v", r.key(), err)
		r.setWaitingAll("ContainerCreating", err.Error())
		r.push(ctx)
		select {
		case <-r.deleted:
			return outcomeDeleted
		case <-r.gone:
			return outcomeDeleted
		case <-time.After(2 * time.Second):
		}
	}
	var deadline <-chan time.Time
	if ads := pod.Spec.ActiveDeadlineSeconds; ads != nil {
		deadline = time.After(time.Until(r.status.StartTime.Add(time.Duration(*ads) * time.Second)))
	}
	// Init containers, one after the other.
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		for attempt := 0; ; attempt++ {
			ct, stop := r.runUntilStarted(ctx, c, true, attempt, deadline)
			if stop != nil {
				return r.stopFor(ctx, *stop)
			}
			if o, ended := r.waitInit(ctx, ct, deadline); ended {
				return o
			}
			if ct.code == 0 {
				break
			}
			if pod.Spec.RestartPolicy == corev1.RestartPolicyNever {
				r.finish(ctx, corev1.PodFailed, "", "")
				return outcomeEnded
			}
			if o, ended := r.backoff(ctx, attempt, deadline); ended {
				return o
			}
		}
	}
	r.setCondition(corev1.PodInitialized, true)
	// The containers, together; each restarted by the restart policy.
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.keepRunning(ctx, c, pod.Spec.RestartPolicy, stop)
		}()
	}
	allDone := make(chan struct{})
	go func() { wg.Wait(); close(allDone) }()
	select {
	case <-allDone:
		r.finishFromContainers(ctx)
		return outcomeEnded
	case <-r.deleted:
		close(stop)
		return outcomeDeleted
	case <-r.gone:
		close(stop)
		return outcomeDeleted
	case msg := <-r.evict:
		close(stop)
		r.killAll(r.grace())
		<-allDone
		r.finish(ctx, corev1.PodFailed, "Evicted", msg)
		return outcomeEnded
	case <-deadline:
		close(stop)
		r.killAll(r.grace())
		<-allDone
		r.finish(ctx, corev1.PodFailed, "DeadlineExceeded", "Pod was active on the node longer than the specified deadline")
		return outcomeEnded
	case <-ctx.Done():
		close(stop)
		return outcomeDeleted
	}
}

type stopReason struct{ reason, message string }

func (r *podRunner) stopFor(ctx context.Context, s stopReason) outcome {
	if s.reason == "deleted" {
		return outcomeDeleted
	}
	r.killAll(r.grace())
	r.finish(ctx, corev1.PodFailed, s.reason, s.message)
	return outcomeEnded
}

// runUntilStarted starts a container, waiting (retrying) while it cannot start.
func (r *podRunner) runUntilStarted(ctx context.Context, c *corev1.Container, isInit bool, attempt int, deadline <-chan time.Time) (*container, *stopReason) {
	for {
		ct, err := r.startContainer(ctx, c, isInit, attempt)
		if err == nil {
			r.mu.Lock()
			r.ctrs[c.Name] = ct
			r.mu.Unlock()
			r.setRunning(c.Name, isInit, ct, attempt)
			r.push(ctx)
			return ct, nil
		}
		r.cannotStart(ctx, c.Name, isInit, err)
		select {
		case <-r.deleted:
			return nil, &stopReason{reason: "deleted"}
		case <-r.gone:
			return nil, &stopReason{reason: "deleted"}
		case <-deadline:
			return nil, &stopReason{"DeadlineExceeded", "Pod was active on the node longer than the specified deadline"}
		case <-time.After(2 * time.Second):
		}
	}
}

func (r *podRunner) waitInit(ctx context.Context, ct *container, deadline <-chan time.Time) (outcome, bool) {
	select {
	case <-ct.exited:
		r.setTerminated(ct, 0)
		r.push(ctx)
		return 0, false
	case <-r.deleted:
		return outcomeDeleted, true
	case <-r.gone:
		return outcomeDeleted, true
	case msg := <-r.evict:
		r.killAll(r.grace())
		r.finish(ctx, corev1.PodFailed, "Evicted", msg)
		return outcomeEnded, true
	case <-deadline:
		r.killAll(r.grace())
		r.finish(ctx, corev1.PodFailed, "DeadlineExceeded", "Pod was active on the node longer than the specified deadline")
		return outcomeEnded, true
	}
}

func (r *podRunner) backoff(ctx context.Context, attempt int, deadline <-chan time.Time) (outcome, bool) {
	select {
	case <-time.After(restartDelay(attempt)):
		return 0, false
	case <-r.deleted:
		return outcomeDeleted, true
	case <-r.gone:
		return outcomeDeleted, true
	case <-deadline:
		r.finish(ctx, corev1.PodFailed, "DeadlineExceeded", "Pod was active on the node longer than the specified deadline")
		return outcomeEnded, true
	}
}

// restartDelay is a short back-off (1 s doubling to 10 s; the kubelet's goes to 5 minutes).
func restartDelay(attempt int) time.Duration {
	d := time.Second << min(attempt, 4)
	return min(d, 10*time.Second)
}

// keepRunning runs one container until it ends for good under the restart policy, or stop closes.
func (r *podRunner) keepRunning(ctx context.Context, c *corev1.Container, policy corev1.RestartPolicy, stop chan struct{}) {
	for attempt := 0; ; attempt++ {
		var ct *container
		for ct == nil {
			var err error
			ct, err = r.startContainer(ctx, c, false, attempt)
			if err != nil {
				r.cannotStart(ctx, c.Name, false, err)
				select {
				case <-stop:
					return
				case <-time.After(2 * time.Second):
				}
			}
		}
		r.mu.Lock()
		r.ctrs[c.Name] = ct
		r.mu.Unlock()
		r.setRunning(c.Name, false, ct, attempt)
		r.push(ctx)
		select {
		case <-ct.exited:
		case <-stop:
			return
		}
		r.setTerminated(ct, attempt)
		r.push(ctx)
		restart := policy == corev1.RestartPolicyAlways || (policy == corev1.RestartPolicyOnFailure && ct.code != 0)
		if !restart {
			return
		}
		select {
		case <-time.After(restartDelay(attempt)):
		case <-stop:
			return
		}
	}
}

// cannotStart reports a container that could not start as waiting, with the reason a kubelet gives.
func (r *podRunner) cannotStart(ctx context.Context, name string, isInit bool, err error) {
	reason := "CreateContainerError"
	var we *waitingError
	if errors.As(err, &we) {
		reason = we.reason
	}
	r.n.logf("pod %s container %s: %v", r.key(), name, err)
	r.setWaiting(name, isInit, reason, err.Error())
	r.push(ctx)
}

func (r *podRunner) grace() time.Duration {
	pod := r.snapshot()
	g := int64(30)
	if pod.Spec.TerminationGracePeriodSeconds != nil {
		g = *pod.Spec.TerminationGracePeriodSeconds
	}
	if pod.DeletionGracePeriodSeconds != nil {
		g = *pod.DeletionGracePeriodSeconds
	}
	return time.Duration(g) * time.Second
}

// killAll sends TERM to every running container, and KILL to those still running after grace.
func (r *podRunner) killAll(grace time.Duration) {
	r.mu.Lock()
	var live []*container
	for _, ct := range r.ctrs {
		if ct.running() {
			live = append(live, ct)
		}
	}
	r.mu.Unlock()
	for _, ct := range live {
		ct.signal(syscall.SIGTERM)
	}
	timer := time.NewTimer(grace)
	defer timer.Stop()
	for _, ct := range live {
		select {
		case <-ct.exited:
		case <-timer.C:
			for _, c := range live {
				c.signal(syscall.SIGKILL)
			}
			for _, c := range live {
				<-c.exited
			}
			return
		}
	}
}

// terminate stops the deleted pod's containers (TERM, KILL after the grace period), reports them
// terminated, and deletes the pod object for good (grace 0), as the kubelet's status manager does.
func (r *podRunner) terminate(ctx context.Context) {
	r.killAll(r.grace())
	r.mu.Lock()
	for _, ct := range r.ctrs {
		r.setTerminatedLocked(ct)
	}
	r.mu.Unlock()
	select {
	case <-r.gone:
		return
	default:
	}
	r.push(ctx)
	zero := int64(0)
	uid := r.uid
	err := r.n.kc.CoreV1().Pods(r.pod.Namespace).Delete(ctx, r.pod.Name, metav1.DeleteOptions{GracePeriodSeconds: &zero, Preconditions: &metav1.Preconditions{UID: &uid}})
	if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
		r.n.logf("pod %s: final delete: %v", r.key(), err)
	}
}

// freeScratchVolumes empties the emptyDir folders of an ended pod. A kubelet keeps them until the pod is
// deleted, but no container of an ended pod runs again, and what they hold is mostly argoexec's copy of
// itself (about 150 MB in every Argo pod: `argoexec init`, `Init` in workflow/executor/emissary/emissary.go).
// With the platform's pods then deleted five minutes after they ended (podGC), a 150-task project kept some
// 300 of them at once and filled the disk.
func (r *podRunner) freeScratchVolumes() {
	r.mu.Lock()
	volumes := r.pod.Spec.Volumes
	r.mu.Unlock()
	for _, v := range volumes {
		dir, ok := r.volumes[v.Name]
		if v.EmptyDir == nil || !ok {
			continue
		}
		if err := os.RemoveAll(dir); err != nil {
			r.n.logf("pod %s: freeing volume %s: %v", r.key(), v.Name, err)
		}
	}
}

func (r *podRunner) cleanup() {
	if r.net != nil {
		r.net.close()
	}
	_ = os.RemoveAll(r.dir)
	r.n.forget(r.uid)
}

func (r *podRunner) prepare(ctx context.Context, pod *corev1.Pod, id string) error {
	if r.net == nil {
		pn, err := newPodNet(id, r.n.cfg.HostServices)
		if err != nil {
			return err
		}
		r.net = pn
	}
	vols, err := r.n.prepareVolumes(ctx, pod, r.dir, r.podIP)
	if err != nil {
		return err
	}
	r.volumes = vols
	return nil
}

func (r *podRunner) key() string { return r.pod.Namespace + "/" + r.pod.Name }

// --- status ---

func (r *podRunner) statuses(isInit bool) *[]corev1.ContainerStatus {
	if isInit {
		return &r.status.InitContainerStatuses
	}
	return &r.status.ContainerStatuses
}

func (r *podRunner) statusOf(name string, isInit bool) *corev1.ContainerStatus {
	list := r.statuses(isInit)
	for i := range *list {
		if (*list)[i].Name == name {
			return &(*list)[i]
		}
	}
	image := ""
	for _, c := range append(append([]corev1.Container{}, r.pod.Spec.InitContainers...), r.pod.Spec.Containers...) {
		if c.Name == name {
			image = c.Image
		}
	}
	*list = append(*list, corev1.ContainerStatus{Name: name, Image: image, ImageID: "process-node://" + image})
	return &(*list)[len(*list)-1]
}

func (r *podRunner) setWaitingAll(reason, msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.pod.Spec.InitContainers {
		r.statusOf(c.Name, true).State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "PodInitializing", Message: msg}}
	}
	for _, c := range r.pod.Spec.Containers {
		reason := reason
		if len(r.pod.Spec.InitContainers) > 0 {
			reason = "PodInitializing"
		}
		r.statusOf(c.Name, false).State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: msg}}
	}
}

func (r *podRunner) setWaiting(name string, isInit bool, reason, msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.statusOf(name, isInit).State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: msg}}
}

func (r *podRunner) setRunning(name string, isInit bool, ct *container, attempt int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := r.statusOf(name, isInit)
	st.RestartCount = int32(attempt)
	st.ContainerID = fmt.Sprintf("process://%d", ct.cmd.Process.Pid)
	st.State = corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: ct.started}}
	t := true
	st.Started = &t
	st.Ready = !isInit
	if !isInit {
		r.status.Phase = corev1.PodRunning
	}
	r.refreshReadyLocked()
}

func (r *podRunner) setTerminated(ct *container, _ int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.setTerminatedLocked(ct)
}

func (r *podRunner) setTerminatedLocked(ct *container) {
	st := r.statusOf(ct.spec.Name, ct.init)
	select {
	case <-ct.exited:
	default:
		return
	}
	term := &corev1.ContainerStateTerminated{
		ExitCode: ct.code, Reason: ct.reason, StartedAt: ct.started, FinishedAt: metav1.Now(), ContainerID: st.ContainerID,
	}
	if st.State.Terminated != nil && st.State.Terminated.ContainerID == st.ContainerID {
		return
	}
	if st.State.Terminated != nil {
		st.LastTerminationState = corev1.ContainerState{Terminated: st.State.Terminated}
	}
	st.State = corev1.ContainerState{Terminated: term}
	f := false
	st.Started = &f
	st.Ready = false
	r.refreshReadyLocked()
}

func (r *podRunner) refreshReadyLocked() {
	ready := len(r.status.ContainerStatuses) == len(r.pod.Spec.Containers)
	for _, st := range r.status.ContainerStatuses {
		if !st.Ready {
			ready = false
		}
	}
	r.setConditionLocked(corev1.ContainersReady, ready)
	r.setConditionLocked(corev1.PodReady, ready)
}

func (r *podRunner) setCondition(t corev1.PodConditionType, v bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.setConditionLocked(t, v)
}

func (r *podRunner) setConditionLocked(t corev1.PodConditionType, v bool) {
	s := corev1.ConditionFalse
	if v {
		s = corev1.ConditionTrue
	}
	for i := range r.status.Conditions {
		if r.status.Conditions[i].Type == t {
			if r.status.Conditions[i].Status != s {
				r.status.Conditions[i].Status = s
				r.status.Conditions[i].LastTransitionTime = metav1.Now()
			}
			return
		}
	}
	r.status.Conditions = append(r.status.Conditions, corev1.PodCondition{Type: t, Status: s, LastTransitionTime: metav1.Now()})
}

// finishFromContainers sets the final phase once every container has ended for good.
func (r *podRunner) finishFromContainers(ctx context.Context) {
	r.mu.Lock()
	phase := corev1.PodSucceeded
	for _, st := range r.status.ContainerStatuses {
		if st.State.Terminated == nil || st.State.Terminated.ExitCode != 0 {
			phase = corev1.PodFailed
		}
	}
	r.mu.Unlock()
	r.finish(ctx, phase, "", "")
}

func (r *podRunner) finish(ctx context.Context, phase corev1.PodPhase, reason, msg string) {
	r.mu.Lock()
	for _, ct := range r.ctrs {
		r.setTerminatedLocked(ct)
	}
	// A container that never ran is reported terminated too, as a kubelet does for an ended pod.
	for _, list := range []*[]corev1.ContainerStatus{&r.status.InitContainerStatuses, &r.status.ContainerStatuses} {
		for i := range *list {
			if (*list)[i].State.Waiting != nil || (*list)[i].State.Running != nil {
				(*list)[i].State = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 137, Reason: "ContainerStatusUnknown", FinishedAt: metav1.Now()}}
				(*list)[i].Ready = false
			}
		}
	}
	r.status.Phase = phase
	r.status.Reason, r.status.Message = reason, msg
	r.setConditionLocked(corev1.ContainersReady, false)
	r.setConditionLocked(corev1.PodReady, false)
	r.mu.Unlock()
	r.push(ctx)
}

// push writes the runner's status to the pod (the phase never goes back from a terminal one).
func (r *podRunner) push(ctx context.Context) {
	r.mu.Lock()
	st := *r.status.DeepCopy()
	name, ns := r.pod.Name, r.pod.Namespace
	r.mu.Unlock()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur, err := r.n.kc.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if cur.UID != r.uid {
			return nil
		}
		// Conditions others set (DisruptionTarget) are kept.
		keep := []corev1.PodCondition{}
		for _, c := range cur.Status.Conditions {
			if !ownCondition(c.Type) {
				keep = append(keep, c)
			}
		}
		qos := cur.Status.QOSClass
		cur.Status = st
		cur.Status.Conditions = append(st.Conditions, keep...)
		cur.Status.QOSClass = qos
		_, err = r.n.kc.CoreV1().Pods(ns).UpdateStatus(ctx, cur, metav1.UpdateOptions{})
		return err
	})
	if err != nil && !apierrors.IsNotFound(err) && ctx.Err() == nil {
		r.n.logf("pod %s/%s: status: %v", ns, name, err)
	}
}

func ownCondition(t corev1.PodConditionType) bool {
	switch t {
	case corev1.PodScheduled, corev1.PodInitialized, corev1.ContainersReady, corev1.PodReady:
		return true
	}
	return false
}

// container gives the running (or last) run of the named container.
func (r *podRunner) container(name string) (*container, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if name == "" {
		for _, c := range r.pod.Spec.Containers {
			name = c.Name
			break
		}
	}
	ct, ok := r.ctrs[name]
	if !ok {
		return nil, fmt.Errorf("container %s of pod %s is not running", name, r.key())
	}
	return ct, nil
}
