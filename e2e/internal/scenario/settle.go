package scenario

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"sigs.k8s.io/yaml"

	"cdk8s-agent-play/e2e/internal/coderun"
	"cdk8s-agent-play/e2e/internal/eventbus"
	"cdk8s-agent-play/e2e/internal/kube"
	"cdk8s-agent-play/e2e/internal/platformkeys"
	"cdk8s-agent-play/e2e/node"
)

// settle waits until the namespace is at rest: nothing is at work that will change the cluster without
// something from outside (a delivery, an agent, a deletion): every live Workflow waits at a gate or on a
// running CodeRun, or has ended (restingWorkflow), no pod is pending, starting or being deleted, no pod of
// a play runs but those waiting on a live CodeRun (restingPod), the controller has taken in every pod that
// ended, the garbage collector has nothing left of a deleted Workflow, the stub has marked every CodeRun,
// and the Sensors have handled every event on the bus (eventbus). Each of these is read from the cluster,
// so the wait ends as soon as the cluster is at rest. What no condition covers (a controller between
// reading a change and writing its answer) is covered by the quiet window: the cluster must also have
// stayed the same (no Workflow, pod, CodeRun or ConfigMap changed) for quiet.
func (r *Runner) settle(ctx context.Context, what string, quiet time.Duration) error {
	start := time.Now()
	deadline := start.Add(r.env.StepLimit)
	last, since := "", time.Now()
	lastBusy := ""
	for {
		fp, busy, err := r.fingerprint(ctx)
		if err != nil && !overloaded(err) {
			return err
		}
		if err != nil {
			// An API server too busy to answer in time (a loaded machine, a project's many pods) is at work:
			// look again, within the step's limit.
			fp, busy = last, "the API server is overloaded: "+err.Error()
		}
		if fp != last || busy != "" {
			last, since = fp, time.Now()
			if busy != "" {
				lastBusy = busy
			}
		}
		if time.Since(since) >= quiet {
			r.logf("settled after %s: active %s (last busy: %s), then quiet %s", time.Since(start).Round(100*time.Millisecond),
				since.Sub(start).Round(100*time.Millisecond), lastBusy, time.Since(since).Round(100*time.Millisecond))
			return nil
		}
		if time.Now().After(deadline) {
			if busy == "" {
				busy = "the cluster kept changing"
			}
			return fmt.Errorf("after %s: the cluster did not come to rest within %s (%s)", what, r.env.StepLimit, busy)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// overloaded tells an error of an API server too busy to answer (a timeout, too many requests), which
// passes, from one that does not.
func overloaded(err error) bool {
	return apierrors.IsServerTimeout(err) || apierrors.IsTimeout(err) || apierrors.IsTooManyRequests(err)
}

// fingerprint lists the namespace's Workflows, pods, CodeRuns and ConfigMaps: what they say (to see a
// change) and the first reason found why the namespace is not at rest ("" when it is).
func (r *Runner) fingerprint(ctx context.Context) (string, string, error) {
	ns := r.env.Namespace
	if r.watched == nil {
		w, err := watch(ctx, r.env.Client, ns)
		if err != nil {
			return "", "", err
		}
		r.watched = w
	}
	// The plays' repository labels are named by the registry's entries (repositoryNamed).
	if _, err := r.registryEntries(ctx); err != nil {
		return "", "", err
	}
	var parts []string
	var busy []string
	uids := map[string]string{}
	live := map[string]bool{}
	created := map[string]time.Time{}
	nodes := map[string]map[string]any{}
	repositories := map[string]string{}
	for _, w := range itemsOf[*unstructured.Unstructured](r.watched.workflows) {
		repositories[w.GetName()] = r.repositoryNamed(w.GetLabels()[platformkeys.PlayLabelRepository])
		uids[w.GetName()] = string(w.GetUID())
		live[string(w.GetUID())] = true
		created[string(w.GetUID())] = w.GetCreationTimestamp().Time
		parts = append(parts, "wf/"+w.GetName()+"/"+r.watched.state(w))
		if b := restingWorkflow(w); b != "" {
			busy = append(busy, "workflow "+w.GetName()+" "+b)
		}
		if w.GetDeletionTimestamp() == nil {
			nodes[w.GetName()] = nodesOf(w)
			r.gates.observe(w.GetName(), string(w.GetUID()), nodes[w.GetName()])
		}
	}
	crPhase := map[string]string{}
	for _, c := range itemsOf[*unstructured.Unstructured](r.watched.coderuns) {
		parts = append(parts, "cr/"+c.GetName()+"/"+c.GetResourceVersion())
		phase, _, _ := unstructured.NestedString(c.Object, "status", "phase")
		crPhase[c.GetName()] = phase
		switch {
		case c.GetDeletionTimestamp() != nil:
			busy = append(busy, "CodeRun "+c.GetName()+" being deleted")
		case phase == "":
			busy = append(busy, "CodeRun "+c.GetName()+" not marked Running by the stub yet")
		case orphan(c.GetOwnerReferences(), live):
			busy = append(busy, "CodeRun "+c.GetName()+" of a deleted Workflow not collected yet")
		}
	}
	holding := r.env.Node.Holding(ns)
	listed := map[string]bool{}
	for _, p := range itemsOf[*corev1.Pod](r.watched.pods) {
		r.notePredecessorPod(p, uids)
		r.noteRevision(p, created)
		r.noteAgentPod(p, repositories)
		listed[string(p.UID)] = true
		parts = append(parts, "pod/"+p.Name+"/"+p.ResourceVersion)
		// A project's wait-play pod polls its task's record: projectPodsBusy judges it.
		if _, _, taskWait := waitsOnTask(p); taskWait {
			continue
		}
		// A direct agent's pod whose fake CLI waits for the scenario is at rest.
		if b := restingPod(p, nodes, crPhase, live, holding); b != "" && (b != "running" || !r.agentWaits(p)) {
			busy = append(busy, "pod "+p.Name+" "+b)
		}
	}
	r.markGoneAgentPods(listed)
	for _, c := range itemsOf[*corev1.ConfigMap](r.watched.configmaps) {
		parts = append(parts, "cm/"+c.Name+"/"+c.ResourceVersion)
	}
	busy = append(busy, projectPodsBusy(values(itemsOf[*corev1.Pod](r.watched.pods)), values(itemsOf[*corev1.ConfigMap](r.watched.configmaps)),
		values(itemsOf[*unstructured.Unstructured](r.watched.workflows)))...)
	if len(busy) == 0 && r.env.Bus != nil {
		durables, err := r.sensorDurables(ctx)
		if err != nil {
			return "", "", err
		}
		b, err := r.env.Bus.InFlight(ctx, durables)
		if err != nil {
			return "", "", err
		}
		if b != "" {
			busy = append(busy, b)
		}
	}
	sort.Strings(parts)
	sort.Strings(busy)
	return strings.Join(parts, ","), strings.Join(busy, "; "), nil
}

// restingWorkflow tells why a Workflow is not at rest ("" when it is): not picked up by the controller
// yet, or running with no step that waits on the outside (between two steps, or a retry backing off).
func restingWorkflow(w *unstructured.Unstructured) string {
	if w.GetDeletionTimestamp() != nil {
		return "being deleted"
	}
	phase, _, _ := unstructured.NestedString(w.Object, "status", "phase")
	switch phase {
	case "":
		return "not picked up by the controller yet"
	case "Running":
	default:
		return ""
	}
	if b := backingOff(w); b != "" {
		return b
	}
	for _, v := range nodesOf(w) {
		n, _ := v.(map[string]any)
		switch n["type"] {
		case "Pod", "Container", "Suspend", "HTTP", "Plugin":
			if n["phase"] == "Pending" || n["phase"] == "Running" {
				return ""
			}
		}
	}
	return "running with no step at work or waiting: the controller has its next step to take"
}

// restingPod tells why a pod is not at rest ("" when it is). nodes are the live Workflows' nodes by
// Workflow name, crPhase the CodeRuns' phases by name, live the UIDs of the Workflows that exist; holding
// tells whether the node holds pods of the namespace (Env.Hold).
func restingPod(p *corev1.Pod, nodes map[string]map[string]any, crPhase map[string]string, live map[string]bool, holding bool) string {
	if p.DeletionTimestamp != nil {
		return "being deleted"
	}
	if orphan(p.OwnerReferences, live) {
		return "of a deleted Workflow not collected yet"
	}
	wf, ofWorkflow := p.Labels[kube.ArgoLabelWorkflow]
	switch p.Status.Phase {
	case corev1.PodPending:
		if heldPod(p) && holding {
			// It waits for the scenario, not for the cluster.
			return ""
		}
		return "pending"
	case corev1.PodRunning:
		if !ofWorkflow {
			return ""
		}
		// A resource template's pod (argoexec resource) waiting on a CodeRun is at rest while the CodeRun
		// runs: only the agent (the scenario's agentDone, agentFailed) moves it. Every other pod of a
		// Workflow is at work.
		if name, waiting := codeRunWaitedOn(p); waiting {
			switch phase, ok := crPhase[name]; {
			case !ok:
				// Gone (cancelled): the pod fails its next look; the quiet window covers it.
				return ""
			case coderun.Terminal(phase):
				return "waits on CodeRun " + name + ", which is " + phase + ": it ends at its next look"
			default:
				return ""
			}
		}
		if resourceWaiter(p) {
			return ""
		}
		return "running"
	case corev1.PodSucceeded, corev1.PodFailed:
		// The controller has not taken in a pod that ended while its node still says Pending or Running.
		id := p.Annotations[kube.ArgoAnnotationNodeID]
		if n, ok := nodes[wf][id].(map[string]any); ofWorkflow && ok && (n["phase"] == "Pending" || n["phase"] == "Running") {
			return "ended " + string(p.Status.Phase) + " and not taken in by the controller yet"
		}
	}
	return ""
}

// orphan tells whether an object belongs to a Workflow that no longer exists: the garbage collector is
// about to delete it.
func orphan(refs []metav1.OwnerReference, live map[string]bool) bool {
	for _, o := range refs {
		if o.Kind == "Workflow" && !live[string(o.UID)] {
			return true
		}
	}
	return false
}

// argoTemplate is the part of a Workflow pod's template (its containers' ARGO_TEMPLATE) read here.
type argoTemplate struct {
	Resource *struct {
		Action           string `json:"action"`
		Manifest         string `json:"manifest"`
		SuccessCondition string `json:"successCondition"`
		FailureCondition string `json:"failureCondition"`
	} `json:"resource"`
}

// podTemplate reads the template a Workflow's pod runs, from its containers' ARGO_TEMPLATE (the
// controller gives it to the init and wait containers, not to main: workflow/controller/workflowpod.go).
func podTemplate(p *corev1.Pod) *argoTemplate {
	for _, c := range append(append([]corev1.Container{}, p.Spec.InitContainers...), p.Spec.Containers...) {
		for _, e := range c.Env {
			if e.Name == "ARGO_TEMPLATE" {
				var t argoTemplate
				if json.Unmarshal([]byte(e.Value), &t) == nil {
					return &t
				}
			}
		}
	}
	return nil
}

// resourceWaiter tells whether a pod runs a resource template that waits on a condition of its object
// (successCondition or failureCondition): it waits on the outside.
func resourceWaiter(p *corev1.Pod) bool {
	t := podTemplate(p)
	return t != nil && t.Resource != nil && (t.Resource.SuccessCondition != "" || t.Resource.FailureCondition != "")
}

// codeRunWaitedOn gives the CodeRun a resource template's pod waits on (`get` with a condition, the
// manifest naming a CodeRun).
func codeRunWaitedOn(p *corev1.Pod) (string, bool) { return waitedOn(p, "CodeRun") }

// waitedOn gives the object of a kind a resource template's pod waits on (`get` with a condition).
func waitedOn(p *corev1.Pod, kind string) (string, bool) {
	t := podTemplate(p)
	if t == nil || t.Resource == nil || t.Resource.Action != "get" || (t.Resource.SuccessCondition == "" && t.Resource.FailureCondition == "") {
		return "", false
	}
	var m struct {
		Kind     string `json:"kind"`
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	if yaml.Unmarshal([]byte(t.Resource.Manifest), &m) != nil || m.Kind != kind || m.Metadata.Name == "" {
		return "", false
	}
	return m.Metadata.Name, true
}

// sensorDurables names the durable consumers of the namespace's Sensors (eventbus.DurableName): every
// trigger with every dependency of its Sensor. The Sensors are the platform's, applied before the scenario
// and never changed by it: they are read once per scenario, not at every look at the cluster.
func (r *Runner) sensorDurables(ctx context.Context) (map[string]string, error) {
	if r.durables != nil {
		return r.durables, nil
	}
	list, err := r.env.Client.Dynamic.Resource(kube.SensorResource).Namespace(r.env.Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, s := range list.Items {
		deps, _, _ := unstructured.NestedSlice(s.Object, "spec", "dependencies")
		triggers, _, _ := unstructured.NestedSlice(s.Object, "spec", "triggers")
		for _, t := range triggers {
			tm, _ := t.(map[string]any)
			tname, _, _ := unstructured.NestedString(tm, "template", "name")
			for _, d := range deps {
				dm, _ := d.(map[string]any)
				dname, _ := dm["name"].(string)
				out[eventbus.DurableName(s.GetName(), tname, dname)] = "Sensor " + s.GetName() + " trigger " + tname
			}
		}
	}
	r.durables = out
	return out, nil
}

// backingOff tells whether a running Workflow waits on a timer: a retry node between two attempts.
func backingOff(w *unstructured.Unstructured) string {
	nodes := nodesOf(w)
	for _, v := range nodes {
		n, _ := v.(map[string]any)
		if n["type"] != "Retry" || n["phase"] != "Running" {
			continue
		}
		children, _ := n["children"].([]any)
		active := false
		for _, c := range children {
			cn, _ := nodes[fmt.Sprint(c)].(map[string]any)
			if cn != nil && (cn["phase"] == "Running" || cn["phase"] == "Pending") {
				active = true
			}
		}
		if !active {
			return fmt.Sprintf("retry %v backing off", n["displayName"])
		}
	}
	return ""
}

// notePredecessorPod records a pod that belongs to an earlier Workflow of the same name as a live one
// (issue 22, item 5): Argo finds a node's pod by its name, which depends only on the workflow's and the
// node's names, and would take that pod's results as the successor's.
func (r *Runner) notePredecessorPod(p *corev1.Pod, uids map[string]string) {
	wf := p.Labels[kube.ArgoLabelWorkflow]
	live, ok := uids[wf]
	if wf == "" || !ok {
		return
	}
	for _, o := range p.OwnerReferences {
		if o.Kind == "Workflow" && o.Name == wf && string(o.UID) != live {
			key := fmt.Sprintf("pod %s of an earlier workflow %s beside its successor", p.Name, wf)
			if !r.predecessorPods[key] {
				if r.predecessorPods == nil {
					r.predecessorPods = map[string]bool{}
				}
				r.predecessorPods[key] = true
				r.note("%s", key)
			}
		}
	}
}

// heldPod tells a pod the node keeps from starting on the scenario's request (Env.Hold): it waits for the
// scenario, not for the cluster.
func heldPod(p *corev1.Pod) bool {
	if len(p.Status.ContainerStatuses) == 0 {
		return false
	}
	for _, c := range append(append([]corev1.ContainerStatus{}, p.Status.InitContainerStatuses...), p.Status.ContainerStatuses...) {
		if c.State.Waiting == nil || c.State.Waiting.Message != node.HeldMessage {
			return false
		}
	}
	return true
}

// nodesOf gives a Workflow's status.nodes as they are in the object (no copy: only to be read).
func nodesOf(w *unstructured.Unstructured) map[string]any {
	v, _, _ := unstructured.NestedFieldNoCopy(w.Object, "status", "nodes")
	m, _ := v.(map[string]any)
	return m
}

// workflowState is what a Workflow says, without what the Argo controller writes at every look at it: the
// annotation workflows.argoproj.io/last-seen-version, which changes the resourceVersion, which brings the
// next look (every DEFAULT_REQUEUE_TIME), so the resourceVersion of a running Workflow never rests.
func workflowState(w *unstructured.Unstructured) string {
	c := w.DeepCopy()
	unstructured.RemoveNestedField(c.Object, "metadata", "annotations", kube.ArgoAnnotationLastSeenVersion)
	unstructured.RemoveNestedField(c.Object, "metadata", "resourceVersion")
	unstructured.RemoveNestedField(c.Object, "metadata", "managedFields")
	unstructured.RemoveNestedField(c.Object, "metadata", "generation")
	b, _ := json.Marshal(c.Object)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}
