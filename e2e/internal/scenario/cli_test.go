package scenario

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestStatusDiffers(t *testing.T) {
	var rep statusReport
	if err := json.Unmarshal([]byte(`{"tasks":[
		{"repository":"5dlabs/CTO-play-test","task":"5","stage":"code-quality"},
		{"repository":"5dlabs/cto-play-web","task":"5","stage":"implementation"}]}`), &rep); err != nil {
		t.Fatal(err)
	}
	plays := []PlayOutcome{
		{Repository: "5dlabs/cto-play-test", Task: 5, Stage: "code-quality"},
		{Repository: "5dlabs/cto-play-web", Task: 5, Stage: "waiting-pr-created"},
		{Repository: "5dlabs/cto-play-test", Task: 6, Stage: "testing"},
		{Repository: "5dlabs/cto-play-test", Task: 7, Stage: noPlay},
	}
	got := statusDiffers(rep, plays)
	want := []string{
		"agent-play status: no record of task 5dlabs/cto-play-test/6 (its play is at testing)",
		"agent-play status: task 5dlabs/cto-play-web/5 at implementation, its play at waiting-pr-created",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("statusDiffers:\n got  %q\n want %q", got, want)
	}
	if d := statusDiffers(rep, plays[:1]); len(d) != 0 {
		t.Fatalf("a task at its play's stage: got %q", d)
	}
}
