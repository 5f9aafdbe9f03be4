package scenario

import (
	"testing"
	"time"
)

func TestRealClock(t *testing.T) {
	base := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	c := &realClock{}
	c.begin(base)                       // plays (step -1)
	c.begin(base.Add(40 * time.Second)) // step 0
	c.begin(base.Add(100 * time.Second))
	c.begin(base.Add(200 * time.Second)) // step 2, the current one
	cases := []struct {
		sim  string
		want time.Duration
	}{
		{"2026-01-01T00:00:00Z", 40 * time.Second},  // the start of step 0
		{"2026-01-01T00:00:30Z", 70 * time.Second},  // half-way through step 0 (40 s to 100 s)
		{"2026-01-01T00:01:30Z", 150 * time.Second}, // half-way through step 1 (100 s to 200 s)
		{"2026-01-01T00:02:00Z", 200 * time.Second}, // the current step
		{"2026-01-01T00:03:10Z", 270 * time.Second}, // after it: the same distance past its start
	}
	for _, tc := range cases {
		sim, _ := time.Parse(time.RFC3339, tc.sim)
		if got := c.real(sim); !got.Equal(base.Add(tc.want)) {
			t.Errorf("%s: got %s, want %s", tc.sim, got, base.Add(tc.want))
		}
	}
	out, changed, err := c.retime([]byte(`{"review":{"submitted_at":"2026-01-01T00:01:30Z","n":12},"x":"2019-05-15T15:20:38Z"}`))
	if err != nil || !changed {
		t.Fatalf("retime: %v %v", changed, err)
	}
	if want := `{"review":{"n":12,"submitted_at":"2026-11-26T12:02:30Z"},"x":"2019-05-15T15:20:38Z"}`; string(out) != want {
		t.Errorf("retime: got %s, want %s", out, want)
	}
	same := []byte(`{"a":"2019-05-15T15:20:38Z"}`)
	if out, changed, _ := c.retime(same); changed || string(out) != string(same) {
		t.Errorf("a payload without simulated times changed: %s", out)
	}
}
