package scenario

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func TestDescribeWorkflowNamesTheFirstFailedStep(t *testing.T) {
	w := &unstructured.Unstructured{Object: map[string]any{
		"metadata": map[string]any{"name": "play-abcde", "labels": map[string]any{"workflow-type": "play", "task-id": "5"}},
		"status": map[string]any{"phase": "Failed", "message": "child 'x' failed", "nodes": map[string]any{
			"a": map[string]any{"type": "Pod", "displayName": "record-exit", "phase": "Failed", "message": "later", "startedAt": "2026-11-27T08:00:05Z"},
			"b": map[string]any{"type": "Pod", "displayName": "resolve-repository", "phase": "Error", "message": "the API server timed out", "startedAt": "2026-11-27T08:00:01Z"},
			"c": map[string]any{"type": "Steps", "displayName": "play-abcde", "phase": "Failed", "startedAt": "2026-11-27T08:00:00Z"},
			"d": map[string]any{"type": "Pod", "displayName": "check", "phase": "Succeeded", "startedAt": "2026-11-27T07:59:00Z"},
		}},
	}}
	got := describeWorkflow(w)
	for _, want := range []string{`play-abcde (`, `task-id="5"`, `repository=""`, `Failed "child 'x' failed"`, `step resolve-repository Error: "the API server timed out"`} {
		if !strings.Contains(got, want) {
			t.Errorf("describeWorkflow = %s; want it to contain %s", got, want)
		}
	}
}

func TestDescribeWorkflowOfOneTheControllerNeverLabelled(t *testing.T) {
	w := &unstructured.Unstructured{Object: map[string]any{
		"metadata": map[string]any{"name": "play-fghij"},
		"status":   map[string]any{"phase": "Failed", "message": "invalid spec: timeout"},
	}}
	got := describeWorkflow(w)
	want := `play-fghij (workflow-type="" task-id="" repository=""; Failed "invalid spec: timeout")`
	if got != want {
		t.Errorf("describeWorkflow = %s; want %s", got, want)
	}
}
