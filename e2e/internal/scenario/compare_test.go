package scenario

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"cdk8s-agent-play/e2e/internal/platformkeys"
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

func TestParseProgressRecordsReadsOnlyTheTrackingConfigMaps(t *testing.T) {
	tracked := corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{platformkeys.ProgressTrackingLabel: "true"}}, Data: map[string]string{
		"o.r.task-5.json": `{"repository":"o/r","task":5,"status":"suspended","releases":{"waiting-pr-created":{"prUrl":"u"}}}`,
		"broken":          `{`,
		"nameless":        `{"task":6}`,
	}}
	other := corev1.ConfigMap{Data: map[string]string{"x": `{"repository":"o/r","task":7}`}}
	got := parseProgressRecords([]corev1.ConfigMap{tracked, other})
	if len(got) != 1 || got[0].Repository != "o/r" || got[0].Status != "suspended" || got[0].Releases["waiting-pr-created"] == nil || got[0].text == "" {
		t.Errorf("parseProgressRecords = %+v; want task 5's record alone, with its release and text", got)
	}
}
