package scenario

import (
	"encoding/json"
	"strings"
	"testing"
)

func record(t *testing.T, text string) progressRecord {
	t.Helper()
	var rec progressRecord
	if err := json.Unmarshal([]byte(text), &rec); err != nil {
		t.Fatal(err)
	}
	rec.text = text
	return rec
}

func TestExitRecordDiffers(t *testing.T) {
	failed := []PlayOutcome{{Repository: "5dlabs/cto-play-test", Task: 5, Stage: "code-quality", Status: "failed", Phase: "Failed"}}
	good := record(t, `{"repository":"5dlabs/CTO-play-test","task":"5","stage":"code-quality","status":"failed","stageResults":{"code-quality":{"result":"failed"}}}`)
	if d := exitRecordDiffers(failed, []progressRecord{good}); len(d) != 0 {
		t.Fatalf("a record naming the stage: got %q", d)
	}
	unresolved := record(t, `{"repository":"5dlabs/cto-play-test","task":"5","stage":"{{workflow.labels.current-stage}}","status":"failed","stageResults":{"{{workflow.labels.current-stage}}":{"result":"failed"}}}`)
	d := exitRecordDiffers(failed, []progressRecord{unresolved})
	if len(d) != 3 || !strings.Contains(strings.Join(d, "\n"), "unresolved Argo variable") {
		t.Fatalf("the variable's text as the stage: got %q", d)
	}
	if d := exitRecordDiffers(failed, nil); len(d) != 1 || !strings.Contains(d[0], "none for task") {
		t.Fatalf("no record: got %q", d)
	}
	running := []PlayOutcome{{Repository: "5dlabs/cto-play-test", Task: 5, Stage: "code-quality", Phase: "Running"}}
	if d := exitRecordDiffers(running, []progressRecord{unresolved}); len(d) != 0 {
		t.Fatalf("a play that did not fail is not checked: got %q", d)
	}
}
