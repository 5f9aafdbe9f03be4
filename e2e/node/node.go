// Package node is the process node: a stand-in for the kubelet that registers a Node, binds the pods
// nobody schedules (there is no scheduler) and runs each pod bound to it as local processes. See
// README.md beside this file for what it does and does not do.
package node

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// Config configures the node.
type Config struct {
	Name string
	// RunDir holds the pods' folders; LogDir the containers' logs (kept after the pods go).
	RunDir, LogDir string
	// ServingCert and ServingKey are the exec endpoint's certificate (the API server checks it).
	ServingCert, ServingKey string
	Port                    int
	Images                  *ImageTable
	// Self is the harness binary, which starts each container (`Self container-init SPEC`, ctrinit.Run)
	// unless InitProgram is given.
	Self string
	// InitProgram is e2e/cmd/container-init (ctrinit.Run alone, which starts a few times faster), or "".
	InitProgram string
	// HostServices are host addresses forwarded into every pod's network namespace.
	HostServices []string
	Log          io.Writer
}

// Node is a running process node.
type Node struct {
	cfg     Config
	kc      kubernetes.Interface
	mu      sync.Mutex
	runners map[types.UID]*podRunner
	nextIP  int
	logMu   sync.Mutex
	ctx     context.Context
	// holds are the namespaces' holds (Hold): scenarios running at once in their own namespaces each
	// hold their own pods.
	holds map[string]*hold
	cpu   cpuUse
}

// hold selects the new pods of a namespace kept from starting until Release; ch closes then.
type hold struct {
	match func(*corev1.Pod) bool
	ch    chan struct{}
}

// New makes a node that talks to the API server with kc.
func New(cfg Config, kc kubernetes.Interface) *Node {
	return &Node{cfg: cfg, kc: kc, runners: map[types.UID]*podRunner{}, nextIP: 2, holds: map[string]*hold{}}
}

func (n *Node) logf(format string, args ...any) {
	n.logMu.Lock()
	defer n.logMu.Unlock()
	fmt.Fprintf(n.cfg.Log, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05.000")}, args...)...)
}

// Run registers the node, serves the kubelet endpoints and runs pods until ctx ends; then it stops every
// pod's processes.
func (n *Node) Run(ctx context.Context, ready chan<- error) {
	n.ctx = ctx
	CleanNetns()
	if err := n.register(ctx); err != nil {
		ready <- err
		return
	}
	srv, err := n.serve()
	if err != nil {
		ready <- err
		return
	}
	factory := informers.NewSharedInformerFactory(n.kc, 0)
	inf := factory.Core().V1().Pods().Informer()
	_, _ = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(o any) { n.sync(o.(*corev1.Pod)) },
		UpdateFunc: func(_, o any) { n.sync(o.(*corev1.Pod)) },
		DeleteFunc: func(o any) {
			if t, ok := o.(cache.DeletedFinalStateUnknown); ok {
				o = t.Obj
			}
			if p, ok := o.(*corev1.Pod); ok {
				n.podGone(p)
			}
		},
	})
	factory.Start(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
		ready <- fmt.Errorf("pod informer did not sync")
		return
	}
	ready <- nil
	<-ctx.Done()
	_ = srv.Close()
	n.stopAll()
}

// register creates (or takes over) the Node object, Ready, at loopback, with the exec port.
func (n *Node) register(ctx context.Context) error {
	capacity := corev1.ResourceList{
		corev1.ResourceCPU: resource.MustParse("64"), corev1.ResourceMemory: resource.MustParse("256Gi"),
		corev1.ResourcePods: resource.MustParse("1000"),
	}
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: n.cfg.Name, Labels: map[string]string{
		"kubernetes.io/hostname": n.cfg.Name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64", "type": "process-node",
	}}}
	if _, err := n.kc.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("register node: %w", err)
	}
	cur, err := n.kc.CoreV1().Nodes().Get(ctx, n.cfg.Name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	now := metav1.Now()
	cur.Status = corev1.NodeStatus{
		Capacity: capacity, Allocatable: capacity, Phase: corev1.NodeRunning,
		Conditions:      []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady", Message: "process node is ready", LastHeartbeatTime: now, LastTransitionTime: now}},
		Addresses:       []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "127.0.0.1"}, {Type: corev1.NodeHostName, Address: n.cfg.Name}},
		DaemonEndpoints: corev1.NodeDaemonEndpoints{KubeletEndpoint: corev1.DaemonEndpoint{Port: int32(n.cfg.Port)}},
		NodeInfo:        corev1.NodeSystemInfo{OperatingSystem: "linux", Architecture: "amd64", KubeletVersion: "process-node", ContainerRuntimeVersion: "process://1"},
	}
	_, err = n.kc.CoreV1().Nodes().UpdateStatus(ctx, cur, metav1.UpdateOptions{})
	return err
}

// sync reacts to a pod seen by the watch: bind it when unscheduled, run it when bound here.
func (n *Node) sync(pod *corev1.Pod) {
	if pod.Spec.NodeName == "" {
		if pod.DeletionTimestamp == nil {
			go n.bind(pod)
		}
		return
	}
	if pod.Spec.NodeName != n.cfg.Name {
		return
	}
	n.mu.Lock()
	r, ok := n.runners[pod.UID]
	if !ok {
		if pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
			// Ended before this node (re)started: only its deletion is left to do.
			n.mu.Unlock()
			if pod.DeletionTimestamp != nil {
				go n.finalDelete(pod)
			}
			return
		}
		r = newPodRunner(n, pod, fmt.Sprintf("127.0.1.%d", n.nextIP%250+2))
		n.nextIP++
		n.runners[pod.UID] = r
		n.mu.Unlock()
		go r.run(n.ctx)
	} else {
		n.mu.Unlock()
	}
	r.update(pod)
}

func (n *Node) finalDelete(pod *corev1.Pod) {
	zero := int64(0)
	uid := pod.UID
	_ = n.kc.CoreV1().Pods(pod.Namespace).Delete(n.ctx, pod.Name, metav1.DeleteOptions{GracePeriodSeconds: &zero, Preconditions: &metav1.Preconditions{UID: &uid}})
}

func (n *Node) bind(pod *corev1.Pod) {
	err := n.kc.CoreV1().Pods(pod.Namespace).Bind(n.ctx, &corev1.Binding{
		ObjectMeta: metav1.ObjectMeta{Name: pod.Name, Namespace: pod.Namespace, UID: pod.UID},
		Target:     corev1.ObjectReference{Kind: "Node", Name: n.cfg.Name},
	}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsConflict(err) && !apierrors.IsNotFound(err) && n.ctx.Err() == nil {
		n.logf("bind %s/%s: %v", pod.Namespace, pod.Name, err)
	}
}

func (n *Node) podGone(pod *corev1.Pod) {
	n.mu.Lock()
	r, ok := n.runners[pod.UID]
	n.mu.Unlock()
	if ok {
		r.markGone()
	}
}

func (n *Node) forget(uid types.UID) {
	n.mu.Lock()
	delete(n.runners, uid)
	n.mu.Unlock()
}

func (n *Node) runner(ns, name string) (*podRunner, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, r := range n.runners {
		r.mu.Lock()
		match := r.pod.Namespace == ns && r.pod.Name == name
		r.mu.Unlock()
		if match {
			return r, nil
		}
	}
	return nil, fmt.Errorf("pod %s/%s does not run on this node", ns, name)
}

// stopAll ends every pod's processes (the harness is stopping).
func (n *Node) stopAll() {
	n.mu.Lock()
	rs := make([]*podRunner, 0, len(n.runners))
	for _, r := range n.runners {
		rs = append(rs, r)
	}
	n.mu.Unlock()
	for _, r := range rs {
		r.killAll(2 * time.Second)
	}
	for _, r := range rs {
		select {
		case <-r.done:
		case <-time.After(5 * time.Second):
		}
	}
}

// DialPod connects to a port of a pod, inside its network namespace (how the harness posts a webhook).
func (n *Node) DialPod(ctx context.Context, ns, name string, port int) (net.Conn, error) {
	r, err := n.runner(ns, name)
	if err != nil {
		return nil, err
	}
	if r.net == nil {
		return nil, fmt.Errorf("pod %s/%s has no network yet", ns, name)
	}
	return r.net.dial(ctx, fmt.Sprintf("127.0.0.1:%d", port))
}

// Evict ends a pod as the kubelet does under node pressure: its containers are stopped, the pod is
// Failed with reason Evicted and the message given; the object stays.
func (n *Node) Evict(ns, name, message string) error {
	r, err := n.runner(ns, name)
	if err != nil {
		return err
	}
	select {
	case r.evict <- message:
		return nil
	default:
		return fmt.Errorf("pod %s/%s is already being evicted", ns, name)
	}
}

// ContainerLog gives the path of a container's log file.
func (n *Node) ContainerLog(ns, name, ctr string) (string, error) {
	r, err := n.runner(ns, name)
	if err != nil {
		matches, _ := filepath.Glob(filepath.Join(n.cfg.LogDir, "pods", ns+"_"+name+"_*", ctr+".log"))
		if len(matches) > 0 {
			return matches[len(matches)-1], nil
		}
		return "", err
	}
	p := r.logFile(ctr)
	if _, err := os.Stat(p); err != nil {
		return "", err
	}
	return p, nil
}

// HeldMessage is the waiting message of a held pod's containers.
const HeldMessage = "held by the scenario"

// Hold keeps every new pod of namespace ns that match selects in ContainerCreating until Release, as a
// slow or busy node would: a scenario uses it to make a step happen before a pod of the play has started.
func (n *Node) Hold(ns string, match func(*corev1.Pod) bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.releaseLocked(ns)
	n.holds[ns] = &hold{match: match, ch: make(chan struct{})}
}

// Release lets the held pods of namespace ns start.
func (n *Node) Release(ns string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.releaseLocked(ns)
}

// Holding tells whether pods of namespace ns are being held (a held pod of a namespace not holding any
// more is about to start).
func (n *Node) Holding(ns string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.holds[ns] != nil
}

func (n *Node) releaseLocked(ns string) {
	if h := n.holds[ns]; h != nil {
		close(h.ch)
		delete(n.holds, ns)
	}
}

// held gives the channel a pod waits on before it starts, or nil when the pod is not held.
func (n *Node) held(pod *corev1.Pod) <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	if h := n.holds[pod.Namespace]; h != nil && h.match(pod) {
		return h.ch
	}
	return nil
}
