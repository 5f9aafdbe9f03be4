package scenario

import (
	"reflect"
	"testing"
)

func TestDiffOfATaskWithNoPlay(t *testing.T) {
	live := PlayOutcome{Repository: "o/r", Task: 6, Stage: "waiting-pr-created", Status: "suspended", Round: 1}
	gone := PlayOutcome{Repository: "o/r", Task: 5, Stage: noPlay}
	for _, c := range []struct {
		name      string
		real, sim []PlayOutcome
		want      []string
	}{
		{"no play on either side", []PlayOutcome{gone, live}, []PlayOutcome{live}, nil},
		{"a play in the simulator only", []PlayOutcome{gone, live}, []PlayOutcome{{Repository: "o/r", Task: 5, Stage: "implementation"}, live},
			[]string{"task o/r/5: no play on the real controllers, the simulator's at implementation"}},
		{"a real play the simulator lacks", []PlayOutcome{live}, nil, []string{"task o/r/6: no play in the simulator"}},
	} {
		got := Diff(&Outcome{Plays: c.real}, &Outcome{Plays: c.sim})
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: Diff = %q; want %q", c.name, got, c.want)
		}
	}
}
