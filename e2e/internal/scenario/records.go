package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"cdk8s-agent-play/e2e/internal/platformkeys"
)

// progressRecord is the part of a task's progress record (constructs/progress/progress-record.ts) the
// harness reads (the exit check, the releases recorded, a project's tasks), and the record's text.
type progressRecord struct {
	Repository   string `json:"repository"`
	Task         any    `json:"task"`
	Stage        string `json:"stage"`
	Status       string `json:"status"`
	StageResults map[string]struct {
		Result string `json:"result"`
	} `json:"stageResults"`
	Releases map[string]any `json:"releases"`
	text     string
}

// progressRecords reads every progress record of the namespace (ConfigMaps labelled play-tracking=true,
// one JSON record per key).
func (r *Runner) progressRecords(ctx context.Context) ([]progressRecord, error) {
	cms, err := r.env.Client.Kube.CoreV1().ConfigMaps(r.env.Namespace).List(ctx, metav1.ListOptions{LabelSelector: platformkeys.ProgressTrackingLabel + "=true"})
	if err != nil {
		return nil, err
	}
	return parseProgressRecords(cms.Items), nil
}

// parseProgressRecords reads the records of the ConfigMaps labelled play-tracking=true.
func parseProgressRecords(cms []corev1.ConfigMap) []progressRecord {
	var out []progressRecord
	eachEntry(cms, platformkeys.ProgressTrackingLabel, func(_, text string) {
		var rec progressRecord
		if json.Unmarshal([]byte(text), &rec) == nil && rec.Repository != "" {
			rec.text = text
			out = append(out, rec)
		}
	})
	return out
}

// exitRecordDiffers checks the exit handler's record of every play that failed (issue 22, item 7): the
// task's progress record names the stage the play failed at (its current-stage label, which record-exit
// reads from the play), says failed, and holds that stage's result; no text of the record is an Argo
// variable left unresolved (`{{workflow.labels.current-stage}}` was one).
func exitRecordDiffers(plays []PlayOutcome, records []progressRecord) []string {
	byTask := map[string]progressRecord{}
	for _, rec := range records {
		byTask[taskKey(rec.Repository, rec.Task)] = rec
	}
	var d []string
	for _, p := range plays {
		if p.Status != "failed" {
			continue
		}
		key := taskKey(p.Repository, p.Task)
		rec, ok := byTask[key]
		switch {
		case !ok:
			d = append(d, fmt.Sprintf("progress record: none for task %s, whose play failed at %s", key, p.Stage))
			continue
		case strings.Contains(rec.text, "{{"):
			d = append(d, fmt.Sprintf("progress record of task %s: an unresolved Argo variable in %s", key, rec.text))
		}
		if rec.Stage != p.Stage || rec.Status != "failed" {
			d = append(d, fmt.Sprintf("progress record of task %s: stage %q status %q, its play failed at %q", key, rec.Stage, rec.Status, p.Stage))
		}
		if res, ok := rec.StageResults[p.Stage]; !ok || res.Result != strings.ToLower(p.Phase) {
			d = append(d, fmt.Sprintf("progress record of task %s: no result %q for stage %q (%v)", key, strings.ToLower(p.Phase), p.Stage, rec.StageResults))
		}
	}
	sort.Strings(d)
	return d
}
