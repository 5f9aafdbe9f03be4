package eventbus

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDurableNameIsArgoEventsHash(t *testing.T) {
	// FNV-32a of "gate-waiting-pr-created-resume-github", worked out apart from hash/fnv.
	if got := DurableName("gate-waiting-pr-created", "resume", "github"); got != "group-2273612320" {
		t.Fatalf("DurableName = %s", got)
	}
}

func state(t *testing.T, text string) *jsz {
	t.Helper()
	var s jsz
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

func TestInFlight(t *testing.T) {
	durables := map[string]string{"group-1": "Sensor a trigger t", "group-2": "Sensor b trigger t"}
	idle := `{"account_details":[{"stream_detail":[{"name":"default","consumer_detail":[
		{"name":"group-1","num_pending":0,"num_ack_pending":0},
		{"name":"group-2","num_pending":0,"num_ack_pending":0},
		{"name":"group-9","num_pending":4,"num_ack_pending":0}]}]}]}`
	if got := inFlight(state(t, idle), durables); got != "" {
		t.Fatalf("idle bus (a deleted Sensor's consumer with events left counts for nothing): %q", got)
	}
	pending := strings.Replace(idle, `"group-2","num_pending":0`, `"group-2","num_pending":1`, 1)
	if got := inFlight(state(t, pending), durables); !strings.Contains(got, "Sensor b trigger t (1 pending, 0 being handled)") {
		t.Fatalf("an event not fetched yet: %q", got)
	}
	handling := strings.Replace(idle, `"group-1","num_pending":0,"num_ack_pending":0`, `"group-1","num_pending":0,"num_ack_pending":1`, 1)
	if got := inFlight(state(t, handling), durables); !strings.Contains(got, "Sensor a trigger t (0 pending, 1 being handled)") {
		t.Fatalf("an event being handled (a trigger retrying): %q", got)
	}
}
