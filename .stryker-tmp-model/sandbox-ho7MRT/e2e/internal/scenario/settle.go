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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"cdk8s-agent-play/e2e/internal/coderun"
	"cdk8s-agent-play/e2e/internal/kube"
	"cdk8s-agent-play/e2e/node"
)

// settle waits until the namespace is quiet: for env.Quiet no Workflow, pod, CodeRun or ConfigMap
// changed, no pod is pending, no Workflow waits to be picked up or sits in a retry's back-off. Then
// every play waits on something outside (a gate, an agent) or has ended.
func (r *Runner) settle(ctx context.Context, what string, quiet time.Duration, notBefore time.Time) error {
	deadline := time.Now().Add(r.env.StepLimit)
	last, since := "", time.Now()
	for {
		fp, busy, err := r.fingerprint(ctx)
		if err != nil {
			return err
		}
		if busy == "" && time.Now().Before(notBefore) {
			busy = "the Sensors may still retry a refused trigger"
		}
		if fp != last || busy != "" {
			last, since = fp, time.Now()
		}
		if time.Since(since) >= quiet {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("after %s: the cluster did not settle within %s (%s)", what, r.env.StepLimit, busy)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func (r *Runner) fingerprint(ctx context.Context) (string, string, error) {
	ns := r.env.Namespace
	var parts []string
	busy := ""
	wfs, err := r.env.Client.Dynamic.Resource(kube.WorkflowResource).Namespace(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return "", "", err
	}
	uids := map[string]string{}
	for _, w := range wfs.Items {
		uids[w.GetName()] = string(w.GetUID())
		parts = append(parts, "wf/"+w.GetName()+"/"+workflowState(&w))
		phase, _, _ := unstructured.NestedString(w.Object, "status", "phase")
		if phase == "" && w.GetDeletionTimestamp() == nil {
			busy = "workflow " + w.GetName() + " not picked up yet"
		}
		if phase == "Running" {
			if b := backingOff(&w); b != "" {
				busy = "workflow " + w.GetName() + ": " + b
			}
		}
	}
	pods, err := r.env.Client.Kube.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return "", "", err
	}
	for _, p := range pods.Items {
		r.notePredecessorPod(&p, uids)
		parts = append(parts, "pod/"+p.Name+"/"+p.ResourceVersion)
		if (p.Status.Phase == "Pending" && !heldPod(&p)) || p.DeletionTimestamp != nil {
			busy = "pod " + p.Name + " " + string(p.Status.Phase)
		}
		// A running pod of a Workflow is at work, unless it is a resource template's (argoexec
		// resource: waiting on a CodeRun or a child Workflow, which only the outside moves).
		if _, ok := p.Labels["workflows.argoproj.io/workflow"]; ok && p.Status.Phase == "Running" && p.DeletionTimestamp == nil && !resourcePod(&p) {
			busy = "pod " + p.Name + " running"
		}
	}
	crs, err := r.env.Client.Dynamic.Resource(coderun.Resource).Namespace(ns).List(ctx, metav1.ListOptions{})
	if err == nil {
		for _, c := range crs.Items {
			parts = append(parts, "cr/"+c.GetName()+"/"+c.GetResourceVersion())
		}
	}
	cms, err := r.env.Client.Kube.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return "", "", err
	}
	for _, c := range cms.Items {
		parts = append(parts, "cm/"+c.Name+"/"+c.ResourceVersion)
	}
	if d := r.env.Stub.SinceFinish(); d < 12*time.Second {
		busy = "a CodeRun ended " + d.Round(time.Second).String() + " ago: its play polls every 5 s"
	}
	sort.Strings(parts)
	return strings.Join(parts, ","), busy, nil
}

// backingOff tells whether a running Workflow waits on a timer: a retry node between two attempts.
func backingOff(w *unstructured.Unstructured) string {
	nodes, _, _ := unstructured.NestedMap(w.Object, "status", "nodes")
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

// resourcePod tells whether a Workflow's pod runs a resource template (its main container runs
// `argoexec resource ACTION`).
func resourcePod(p *corev1.Pod) bool {
	for _, c := range p.Spec.Containers {
		if c.Name != "main" {
			continue
		}
		for i, a := range c.Args {
			if a == "resource" && i > 0 {
				return true
			}
		}
		for i, a := range c.Command {
			if a == "resource" && i > 0 {
				return true
			}
		}
	}
	return false
}

// notePredecessorPod records a pod that belongs to an earlier Workflow of the same name as a live one
// (issue 22, item 5): Argo finds a node's pod by its name, which depends only on the workflow's and the
// node's names, and would take that pod's results as the successor's.
func (r *Runner) notePredecessorPod(p *corev1.Pod, uids map[string]string) {
	wf := p.Labels["workflows.argoproj.io/workflow"]
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

// workflowState is what a Workflow says, without what the Argo controller writes at every look at it: the
// annotation workflows.argoproj.io/last-seen-version, which changes the resourceVersion, which brings the
// next look (every DEFAULT_REQUEUE_TIME), so the resourceVersion of a running Workflow never rests.
func workflowState(w *unstructured.Unstructured) string {
	c := w.DeepCopy()
	unstructured.RemoveNestedField(c.Object, "metadata", "annotations", "workflows.argoproj.io/last-seen-version")
	unstructured.RemoveNestedField(c.Object, "metadata", "resourceVersion")
	unstructured.RemoveNestedField(c.Object, "metadata", "managedFields")
	unstructured.RemoveNestedField(c.Object, "metadata", "generation")
	b, _ := json.Marshal(c.Object)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}
