package scenario

import (
	"bytes"
	"encoding/json"
	"regexp"
	"time"
)

// The simulator's clock (src/simulate/sim-clock.ts): step N happens at simEpoch + N minutes, the plays a
// scenario starts with a minute before step 0. A payload's times (a review's submitted_at, which the
// remediator compares with the play's creation) are written on that clock; on the real cluster they are
// moved to the real time of the same point of the scenario, so that "submitted during round 1" stays true.
var simEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

const simStep = time.Minute

// simTime matches an RFC 3339 time on the simulator's clock (the first day after the epoch).
var simTime = regexp.MustCompile(`^2026-01-01T\d{2}:\d{2}:\d{2}Z$`)

// realClock remembers when each step of the scenario began on the real cluster.
type realClock struct {
	// starts[0] is when the scenario's plays were submitted (step -1), starts[k+1] when step k began.
	starts []time.Time
}

// begin records the start of the next step (or of the plays, first).
func (c *realClock) begin(at time.Time) { c.starts = append(c.starts, at) }

// real maps a time of the simulator's clock to the real one: a time within a step that has ended is
// placed at the same fraction of that step's real span; a time in the current step or later is placed the
// same distance after the current step's real start.
func (c *realClock) real(sim time.Time) time.Time {
	if len(c.starts) == 0 {
		return sim
	}
	offset := sim.Sub(simEpoch) + simStep // from step -1
	idx := int(offset / simStep)
	current := len(c.starts) - 1
	if idx < 0 {
		idx = 0
	}
	if idx >= current {
		return c.starts[current].Add(offset - time.Duration(current)*simStep)
	}
	within := offset - time.Duration(idx)*simStep
	span := c.starts[idx+1].Sub(c.starts[idx])
	return c.starts[idx].Add(time.Duration(float64(span) * float64(within) / float64(simStep)))
}

// retime rewrites every string of a JSON payload that is a time on the simulator's clock to the real
// clock. A payload with no such time is returned as it is, byte for byte.
func (c *realClock) retime(body []byte) ([]byte, bool, error) {
	if !bytes.Contains(body, []byte(`"2026-01-01T`)) {
		return body, false, nil
	}
	var doc any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, false, err
	}
	changed := false
	var walk func(v any) any
	walk = func(v any) any {
		switch t := v.(type) {
		case map[string]any:
			for k, e := range t {
				t[k] = walk(e)
			}
		case []any:
			for i, e := range t {
				t[i] = walk(e)
			}
		case string:
			if simTime.MatchString(t) {
				if at, err := time.Parse(time.RFC3339, t); err == nil {
					changed = true
					return c.real(at).UTC().Format(time.RFC3339)
				}
			}
		}
		return v
	}
	doc = walk(doc)
	out, err := json.Marshal(doc)
	return out, changed, err
}
