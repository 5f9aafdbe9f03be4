package scenario

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"cdk8s-agent-play/e2e/node"
)

func workflow(phase string, nodes map[string]any) *unstructured.Unstructured {
	w := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "play-x", "uid": "wf-uid"}}}
	if phase != "" {
		_ = unstructured.SetNestedField(w.Object, phase, "status", "phase")
	}
	if nodes != nil {
		_ = unstructured.SetNestedField(w.Object, nodes, "status", "nodes")
	}
	return w
}

func TestRestingWorkflow(t *testing.T) {
	dag := map[string]any{"type": "DAG", "phase": "Running"}
	cases := []struct {
		name   string
		w      *unstructured.Unstructured
		atRest bool
	}{
		{"not picked up", workflow("", nil), false},
		{"at a gate", workflow("Running", map[string]any{"a": dag, "b": map[string]any{"type": "Suspend", "phase": "Running"}}), true},
		{"a pod at work", workflow("Running", map[string]any{"a": dag, "b": map[string]any{"type": "Pod", "phase": "Pending"}}), true},
		{"gate released, next step not taken", workflow("Running", map[string]any{"a": dag, "b": map[string]any{"type": "Suspend", "phase": "Succeeded"}}), false},
		{"retry backing off", workflow("Running", map[string]any{
			"r": map[string]any{"type": "Retry", "phase": "Running", "displayName": "wait", "children": []any{"p"}},
			"p": map[string]any{"type": "Pod", "phase": "Failed"},
			"g": map[string]any{"type": "Suspend", "phase": "Running"}}), false},
		{"ended", workflow("Succeeded", map[string]any{"a": map[string]any{"type": "DAG", "phase": "Succeeded"}}), true},
	}
	for _, c := range cases {
		if got := restingWorkflow(c.w); (got == "") != c.atRest {
			t.Errorf("%s: restingWorkflow = %q, want at rest %v", c.name, got, c.atRest)
		}
	}
}

// waitPod is a play's wait step's pod: argoexec resource get on CodeRun cr.
func waitPod(cr string, phase corev1.PodPhase) *corev1.Pod {
	tmpl := `{"name":"run-implementation-wait","resource":{"action":"get","successCondition":"status.phase == Succeeded",` +
		`"manifest":"{\n  \"apiVersion\": \"agents.platform/v1\",\n  \"kind\": \"CodeRun\",\n  \"metadata\": {\"name\": \"` + cr + `\"}\n}\n"}}`
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "play-x-wait", Labels: map[string]string{"workflows.argoproj.io/workflow": "play-x"},
			Annotations: map[string]string{"workflows.argoproj.io/node-id": "play-x-1"}},
		// As the controller makes a resource pod: the template in the init container's environment only.
		Spec: corev1.PodSpec{InitContainers: []corev1.Container{{Name: "init", Env: []corev1.EnvVar{{Name: "ARGO_TEMPLATE", Value: tmpl}}}},
			Containers: []corev1.Container{{Name: "main"}}},
		Status: corev1.PodStatus{Phase: phase},
	}
}

func TestRestingPod(t *testing.T) {
	live := map[string]bool{"wf-uid": true}
	running := map[string]map[string]any{"play-x": {"play-x-1": map[string]any{"phase": "Running"}}}
	done := map[string]map[string]any{"play-x": {"play-x-1": map[string]any{"phase": "Succeeded"}}}
	if name, ok := codeRunWaitedOn(waitPod("rex-1", corev1.PodRunning)); !ok || name != "rex-1" {
		t.Fatalf("codeRunWaitedOn = %q, %v", name, ok)
	}
	check := func(what string, got string, atRest bool) {
		t.Helper()
		if (got == "") != atRest {
			t.Errorf("%s: restingPod = %q, want at rest %v", what, got, atRest)
		}
	}
	check("waits on a running CodeRun", restingPod(waitPod("rex-1", corev1.PodRunning), running, map[string]string{"rex-1": "Running"}, live, false), true)
	check("waits on a CodeRun that succeeded", restingPod(waitPod("rex-1", corev1.PodRunning), running, map[string]string{"rex-1": "Succeeded"}, live, false), false)
	check("ended, its node still running", restingPod(waitPod("rex-1", corev1.PodSucceeded), running, nil, live, false), false)
	check("ended and taken in", restingPod(waitPod("rex-1", corev1.PodSucceeded), done, nil, live, false), true)
	script := waitPod("rex-1", corev1.PodRunning)
	script.Spec.InitContainers[0].Env = nil
	check("a script step running", restingPod(script, running, nil, live, false), false)
	orphan := waitPod("rex-1", corev1.PodSucceeded)
	orphan.OwnerReferences = []metav1.OwnerReference{{Kind: "Workflow", Name: "play-x", UID: "gone"}}
	if got := restingPod(orphan, done, nil, live, false); !strings.Contains(got, "deleted Workflow") {
		t.Errorf("a pod of a deleted Workflow: %q", got)
	}
	held := waitPod("rex-1", corev1.PodPending)
	held.Status.ContainerStatuses = []corev1.ContainerStatus{{State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Message: node.HeldMessage}}}}
	check("held while the node holds", restingPod(held, running, nil, live, true), true)
	check("held after the node let go", restingPod(held, running, nil, live, false), false)
}
