package scenario

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func TestOwnedLabelKeysReadsOnlyTheLabels(t *testing.T) {
	raw := []byte(`{"f:metadata":{"f:annotations":{"f:agents.platform/repository":{}},"f:labels":{".":{},"f:repository":{},"f:current-stage":{}}},"f:spec":{"f:arguments":{}}}`)
	got := ownedLabelKeys(raw)
	want := []string{"current-stage", "repository"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ownedLabelKeys = %q; want %q", got, want)
	}
	if keys := ownedLabelKeys([]byte(`{"f:status":{"f:phase":{}}}`)); keys != nil {
		t.Errorf("ownedLabelKeys of fields without labels = %q; want none", keys)
	}
}

func TestManagedLabelsNamesEachManagerAndItsLabels(t *testing.T) {
	w := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "play-a"}}}
	at := metav1.NewTime(time.Date(2026, 11, 27, 10, 53, 1, 0, time.UTC))
	w.SetManagedFields([]metav1.ManagedFieldsEntry{
		{Manager: "workflow-controller", Operation: metav1.ManagedFieldsOperationUpdate, Time: &at, FieldsType: "FieldsV1",
			FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:metadata":{"f:labels":{"f:task-id":{},"f:workflow-type":{}}}}`)}},
		{Manager: "node", Operation: metav1.ManagedFieldsOperationUpdate, Time: &at, FieldsType: "FieldsV1",
			FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:metadata":{"f:annotations":{}}}`)}},
	})
	got := managedLabels(w)
	want := []string{"workflow-controller Update 10:53:01: labels task-id workflow-type", "node Update 10:53:01: no label"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("managedLabels = %q; want %q", got, want)
	}
}

func TestUnlabelledPlaysLeavesOutMatchedAndOtherKinds(t *testing.T) {
	wf := func(name string, labels map[string]any) unstructured.Unstructured {
		return unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": name, "labels": labels}}}
	}
	items := []unstructured.Unstructured{
		wf("play-d", map[string]any{"workflow-type": "play", "task-id": "5"}),
		wf("resume-x", map[string]any{"workflow-type": "resumer"}),
		wf("play-b", map[string]any{"repository": "o.r"}),
		wf("play-c", map[string]any{"workflow-type": "play"}),
		wf("play-a", nil),
		wf("play-e", nil),
	}
	got := unlabelledPlays(items, map[string]bool{"play-d": true})
	var names []string
	for _, w := range got {
		names = append(names, w.GetName())
	}
	want := []string{"play-a", "play-b", "play-c"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("unlabelledPlays = %q; want %q (sorted, at most three, no resumer, no matched play)", names, want)
	}
}

func TestControllerLinesKeepTheTellingLinesAboutOneWorkflow(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "argo_workflow-controller-1_a", "workflow-controller.log")
	now := filepath.Join(dir, "argo_workflow-controller-2_b", "workflow-controller.log")
	write := func(path string, lines ...string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(now,
		`time=2026-11-27T10:53:02.500Z level=WARN msg="Error updating workflow" namespace=agents error="Operation cannot be fulfilled on workflows.argoproj.io \"play-a\": the object has been modified" workflow=play-a reason=Conflict`,
		`time=2026-11-27T10:53:02.600Z level=INFO msg="Pod node play-a-1 initialized Pending" workflow=play-a namespace=agents`,
		`time=2026-11-27T10:53:02.700Z level=INFO msg="Workflow update successful" workflow=play-ab namespace=agents resourceVersion=99`,
	)
	write(old,
		`time=2026-11-27T10:53:01.000Z level=INFO msg="Processing workflow" workflow=play-a namespace=agents phase= resourceVersion=10`,
		`time=2026-11-27T10:53:01.100Z level=INFO msg="Workflow update successful" namespace=agents workflow=play-a resourceVersion=12 phase=Running`,
	)
	got, err := controllerLines(filepath.Join(dir, "argo_workflow-controller-*", "workflow-controller.log"), "play-a", 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"10:53:01.000 INFO Processing workflow rv 10",
		"10:53:01.100 INFO Workflow update successful rv 12",
		"... 1 more",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("controllerLines = %q; want %q", got, want)
	}
	all, _ := controllerLines(filepath.Join(dir, "argo_workflow-controller-*", "workflow-controller.log"), "play-a", 10)
	last := all[len(all)-1]
	if !strings.HasPrefix(last, "10:53:02.500 WARN Error updating workflow error: Operation cannot be fulfilled") {
		t.Errorf("the conflict line = %q; want its time, level, message and error", last)
	}
}

func TestFirstOfSaysHowManyMore(t *testing.T) {
	got := firstOf("writes", []string{"a", "b", "c"}, 2)
	want := []string{"      writes: a", "      writes: b", "      writes: ... 1 more"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("firstOf = %q; want %q", got, want)
	}
	if got := labelsText(nil); got != "none" {
		t.Errorf("labelsText(nil) = %q; want none", got)
	}
	if got := labelsText(map[string]string{"b": "2", "a": "1"}); got != "a=1 b=2" {
		t.Errorf("labelsText = %q; want a=1 b=2", got)
	}
}
