package scenario

import (
	"reflect"
	"testing"
	"time"
)

func TestRevisionDiffers(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 5, 0, 0, time.UTC)
	re := reapply{revision: "step-1", at: at}
	pods := []podOfWorkflow{
		{Pod: "play-a-1", Workflow: "play-a", Created: at.Add(-time.Minute)},
		{Pod: "resume-b-1", Workflow: "resume-b", Created: at.Add(time.Second), Revision: "step-1"},
		{Pod: "play-a-2", Workflow: "play-a", Created: at.Add(-time.Minute), Revision: "step-1"},
		{Pod: "resume-c-1", Workflow: "resume-c", Created: at.Add(time.Minute)},
	}
	got := revisionDiffers(re, pods)
	want := []string{
		`pod play-a-2 of play-a (created before the templates were applied again) has revision "step-1": the running Workflow took the new template`,
		`pod resume-c-1 of resume-c (created after the templates were applied again) has revision "", not "step-1"`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("revisionDiffers:\n got  %q\n want %q", got, want)
	}
	if d := revisionDiffers(re, pods[:2]); len(d) != 0 {
		t.Fatalf("pods on their Workflow's spec: got %q", d)
	}
	want = []string{"no pod of a Workflow created after the templates were applied again was seen"}
	if d := revisionDiffers(re, pods[:1]); !reflect.DeepEqual(d, want) {
		t.Fatalf("no pod of a later Workflow: got %q, want %q", d, want)
	}
}
