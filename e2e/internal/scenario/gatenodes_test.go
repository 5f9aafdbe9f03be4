package scenario

import (
	"strings"
	"testing"
)

func TestGateNodes(t *testing.T) {
	var g gateNodes
	waiting := map[string]any{
		"n1": map[string]any{"type": "Suspend", "phase": "Running", "displayName": "waiting-pr-created", "failedPodRestarts": int64(1), "startedAt": "t0"},
		"n2": map[string]any{"type": "Pod", "phase": "Running"},
	}
	g.observe("play-a", "uid-a", waiting)
	released := map[string]any{
		"n1": map[string]any{"type": "Suspend", "phase": "Succeeded", "displayName": "waiting-pr-created", "failedPodRestarts": int64(1), "startedAt": "t0", "finishedAt": "t1"},
	}
	g.observe("play-a", "uid-a", released)
	if got := g.lost(); len(got) != 0 {
		t.Fatalf("a release that keeps the fields: got %q", got)
	}
	g.observe("play-b", "uid-b", waiting)
	rewritten := map[string]any{
		"n1": map[string]any{"type": "Suspend", "phase": "Succeeded", "displayName": "waiting-pr-created", "startedAt": "t0", "finishedAt": "t1"},
	}
	g.observe("play-b", "uid-b", rewritten)
	got := g.lost()
	if len(got) != 1 || !strings.Contains(got[0], "lost failedPodRestarts") || !strings.Contains(got[0], "play-b") {
		t.Fatalf("a release that drops a field: got %q", got)
	}
}
