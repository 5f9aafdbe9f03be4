package scenario

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func waitPlayPod(task string) corev1.Pod {
	return corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "wait-play-" + task},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name: "main", Command: []string{"node", "/agent-play/runtime.cjs", "project-wait-play"},
			Env: []corev1.EnvVar{{Name: "REPOSITORY", Value: "5dlabs/cto-play-test"}, {Name: "TASK_ID", Value: task}},
		}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning},
	}
}

func watcherPod(chunk string) corev1.Pod {
	tmpl := `{"resource":{"action":"get","successCondition":"status.phase == Succeeded","manifest":"{\"kind\":\"Workflow\",\"metadata\":{\"name\":\"` + chunk + `\"}}"}}`
	return corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "watcher"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "wait", Env: []corev1.EnvVar{{Name: "ARGO_TEMPLATE", Value: tmpl}}}}},
		Status:     corev1.PodStatus{Phase: corev1.PodRunning},
	}
}

func progressMap(status string) corev1.ConfigMap {
	return corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "play-progress-shard-1", Labels: map[string]string{"play-tracking": "true"}},
		Data:       map[string]string{"5dlabs.cto-play-test.task-1.json": `{"repository":"5dlabs/cto-play-test","task":1,"status":"` + status + `"}`},
	}
}

func TestProjectPodsBusy(t *testing.T) {
	chunk := unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "chunk-wf"}}}
	done := *chunk.DeepCopy()
	done.SetLabels(map[string]string{"workflows.argoproj.io/completed": "true"})
	cases := []struct {
		name string
		pods []corev1.Pod
		cms  []corev1.ConfigMap
		wfs  []unstructured.Unstructured
		busy bool
	}{
		{"a wait-play pod whose task is in progress", []corev1.Pod{waitPlayPod("1")}, []corev1.ConfigMap{progressMap("in-progress")}, nil, false},
		{"a wait-play pod whose task has no record yet", []corev1.Pod{waitPlayPod("1")}, nil, nil, false},
		{"a wait-play pod whose task completed", []corev1.Pod{waitPlayPod("1")}, []corev1.ConfigMap{progressMap("completed")}, nil, true},
		{"a wait-play pod whose task failed", []corev1.Pod{waitPlayPod("1")}, []corev1.ConfigMap{progressMap("failed")}, nil, true},
		{"another task's record completed", []corev1.Pod{waitPlayPod("2")}, []corev1.ConfigMap{progressMap("completed")}, nil, false},
		{"a watcher of a running chunk", []corev1.Pod{watcherPod("chunk-wf")}, nil, []unstructured.Unstructured{chunk}, false},
		{"a watcher of a completed chunk", []corev1.Pod{watcherPod("chunk-wf")}, nil, []unstructured.Unstructured{done}, true},
	}
	for _, c := range cases {
		if got := projectPodsBusy(c.pods, c.cms, c.wfs); (len(got) > 0) != c.busy {
			t.Errorf("%s: projectPodsBusy = %q, want busy %v", c.name, got, c.busy)
		}
	}
	if _, _, ok := waitsOnTask(&corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Command: []string{"node", "x", "gate-check"}}}}}); ok {
		t.Error("a runtime step other than project-wait-play taken for a task waiter")
	}
}

func TestWatcherNode(t *testing.T) {
	for name, want := range map[string]string{
		"project-x-abcde[0].chunk-1[1].wait(0)":  "chunk-1",
		"project-x-abcde[1].chunk-12[1].wait(3)": "chunk-12",
		"project-x-abcde[0].chunk-1[1].wait":     "chunk-1",
		"project-x-abcde[0].chunk-1[0].create":   "",
		"chunk-x.task-1[2].wait(0)":              "",
	} {
		got := ""
		if m := watcherNode.FindStringSubmatch(name); m != nil {
			got = m[1]
		}
		if got != want {
			t.Errorf("%s: chunk %q, want %q", name, got, want)
		}
	}
}

func TestWorkflowNodesCompressed(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write([]byte(`{"n1":{"templateName":"run-task","phase":"Succeeded"}}`))
	_ = zw.Close()
	w := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "c"},
		"status": map[string]any{"compressedNodes": base64.StdEncoding.EncodeToString(buf.Bytes())}}}
	nodes, err := workflowNodes(w)
	if err != nil || len(nodes) != 1 {
		t.Fatalf("workflowNodes = %v, %v", nodes, err)
	}
	_ = unstructured.SetNestedField(w.Object, "not base64!", "status", "compressedNodes")
	if _, err := workflowNodes(w); err == nil {
		t.Error("a compressedNodes that is not base64 read without an error")
	}
}

func TestDiffProjects(t *testing.T) {
	a := []ProjectOutcome{{Name: "p", Phase: "Succeeded", ChunksCompleted: 2, TasksCompleted: 150,
		Chunks: []ChunkOutcome{{Chunk: "chunk-1", Phase: "Succeeded", Tasks: 100, TasksCompleted: 100, WatcherPods: 2}}}}
	if d := diffProjects(a, a); len(d) != 0 {
		t.Errorf("the same projects differ: %v", d)
	}
	b := []ProjectOutcome{a[0]}
	b[0].Chunks = []ChunkOutcome{{Chunk: "chunk-1", Phase: "Succeeded", Tasks: 100, TasksCompleted: 100, WatcherPods: 1}}
	if d := diffProjects(a, b); len(d) != 1 || !strings.Contains(d[0], "watcherPods") {
		t.Errorf("a watcher pod fewer: %v", d)
	}
	if d := diffProjects(a, nil); len(d) == 0 {
		t.Error("a project missing in the simulator does not differ")
	}
	if s := projectSummaries(a); len(s) != 1 || !strings.Contains(s[0], "watcher pods 2") {
		t.Errorf("summary %v", s)
	}
}

func TestOverloaded(t *testing.T) {
	if !overloaded(apierrors.NewServerTimeout(schema.GroupResource{Resource: "pods"}, "list", 1)) {
		t.Error("a server timeout is not taken for an overloaded API server")
	}
	if !overloaded(apierrors.NewTimeoutError("the server was unable to return a response in the time allotted", 1)) {
		t.Error("a timeout is not taken for an overloaded API server")
	}
	if overloaded(apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "x", nil)) {
		t.Error("a refusal is taken for an overloaded API server")
	}
}
