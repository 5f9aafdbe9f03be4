package scenario

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"cdk8s-agent-play/e2e/internal/platformkeys"
)

// PlayOutcome is where a task's newest play ended up.
type PlayOutcome struct {
	Repository string `json:"repository"`
	Task       int    `json:"task"`
	Stage      string `json:"stage"`
	Status     string `json:"status,omitempty"`
	Round      int    `json:"round,omitempty"`
	Phase      string `json:"phase,omitempty"`
	Message    string `json:"message,omitempty"`
}

// CodeRunOutcome is one CodeRun as the comparison sees it.
type CodeRunOutcome struct {
	Repository     string `json:"repository"`
	Stage          string `json:"stage"`
	ContextVersion int64  `json:"contextVersion"`
	Phase          string `json:"phase"`
}

// Outcome is what a scenario came to.
type Outcome struct {
	Plays    []PlayOutcome    `json:"plays"`
	CodeRuns []CodeRunOutcome `json:"coderuns"`
	// Releases are the gates recorded at any time, as repository/task/gate.
	Releases []string `json:"releases"`
	MostLive int      `json:"mostLiveCodeRuns"`
	// PredecessorPods are pods of an earlier Workflow seen beside a successor of the same name (never
	// in the simulator, whose plays meet no pods).
	PredecessorPods []string `json:"predecessorPods,omitempty"`
	// StatusDiffers lists the tasks whose stage `agent-play status` (against the API server) reports
	// otherwise than their play's label.
	StatusDiffers []string `json:"statusDiffers,omitempty"`
	// RevisionDiffers lists the pods that ran another spec than their Workflow's (a reapplyTemplates step).
	RevisionDiffers []string `json:"revisionDiffers,omitempty"`
	// Pods are the direct agents' pods, one per attempt (direct.go).
	Pods []AgentPodOutcome `json:"pods,omitempty"`
	// DirectProblems lists what a direct agent's container held or could do that it must not (a
	// service-account token, a patch of its play the API server took) and work it could not push.
	DirectProblems []string `json:"directProblems,omitempty"`
	// ExitRecordDiffers lists what the progress records of failed plays got wrong (exitRecordDiffers).
	ExitRecordDiffers []string `json:"exitRecordDiffers,omitempty"`
	// GateNodesChanged lists the fields a gate's node lost at its release (gateNodes).
	GateNodesChanged []string `json:"gateNodesChanged,omitempty"`
	// Projects are the projects the scenario submitted (project.go).
	Projects []ProjectOutcome `json:"projects,omitempty"`
}

// noPlay is the stage of a task that has no play.
const noPlay = "(no play)"

// outcome reads the outcome back from the cluster and the stub's history.
func (r *Runner) outcome(ctx context.Context) (*Outcome, error) {
	o := &Outcome{}
	tasks := map[string]TaskRef{}
	for _, p := range r.sc.Plays {
		tasks[fmt.Sprintf("%s/%d", p.Repository, p.Task)] = TaskRef{Repository: p.Repository, Task: p.Task}
	}
	for _, st := range r.sc.Steps {
		for _, t := range []*TaskRef{st.AgentDone, st.AgentFailed, st.DeletePlay, st.ResumeFromState, st.Restart} {
			if t != nil {
				tasks[fmt.Sprintf("%s/%d", t.Repository, t.Task)] = TaskRef{Repository: t.Repository, Task: t.Task}
			}
		}
	}
	keys := make([]string, 0, len(tasks))
	for k := range tasks {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t := tasks[k]
		items, err := r.plays(ctx, t.Repository, t.Task)
		if err != nil {
			return nil, err
		}
		if len(items) == 0 {
			o.Plays = append(o.Plays, PlayOutcome{Repository: t.Repository, Task: t.Task, Stage: noPlay})
			continue
		}
		w := items[0]
		phase, _, _ := unstructured.NestedString(w.Object, "status", "phase")
		msg, _, _ := unstructured.NestedString(w.Object, "status", "message")
		po := PlayOutcome{Repository: t.Repository, Task: t.Task, Stage: w.GetLabels()[platformkeys.PlayLabelCurrentStage], Phase: phase, Message: msg}
		if phase == "Failed" || phase == "Error" {
			po.Status = "failed"
		}
		if n, err := strconv.Atoi(w.GetLabels()[platformkeys.PlayLabelRound]); err == nil && n > 1 {
			po.Round = n
		}
		o.Plays = append(o.Plays, po)
	}
	hist, most := r.env.Stub.History()
	for _, h := range hist {
		o.CodeRuns = append(o.CodeRuns, CodeRunOutcome{Repository: h.Repository, Stage: h.Stage, ContextVersion: h.ContextVersion, Phase: h.Phase})
	}
	o.MostLive = most
	o.Releases = r.releasesSeen
	for k := range r.predecessorPods {
		o.PredecessorPods = append(o.PredecessorPods, k)
	}
	sort.Strings(o.PredecessorPods)
	differs, err := r.checkStatus(ctx, o.Plays)
	if err != nil {
		return nil, err
	}
	o.StatusDiffers = differs
	o.RevisionDiffers = r.checkRevisions()
	o.Pods, o.DirectProblems = r.directOutcome()
	records, err := r.progressRecords(ctx)
	if err != nil {
		return nil, err
	}
	o.ExitRecordDiffers = exitRecordDiffers(o.Plays, records)
	o.GateNodesChanged = r.gates.lost()
	if o.Projects, err = r.projectOutcomes(ctx); err != nil {
		return nil, err
	}
	return o, nil
}

// recordReleases adds the gates now recorded: the `releases` of every progress record (ConfigMaps
// labelled play-tracking=true, one JSON record per key, naming its repository and task). The older release
// ConfigMaps (play-release-{service}-task-{id}) are only read by the platform now, never written.
func (r *Runner) recordReleases(ctx context.Context) error {
	records, err := r.progressRecords(ctx)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, s := range r.releasesSeen {
		seen[s] = true
	}
	for _, rec := range records {
		for gate := range rec.Releases {
			if key := releaseKey(rec.Repository, fmt.Sprint(rec.Task), gate); !seen[key] {
				seen[key] = true
				r.releasesSeen = append(r.releasesSeen, key)
			}
		}
	}
	sort.Strings(r.releasesSeen)
	return nil
}

// releaseKey names a gate's release of one task of one repository (repository names are case-blind).
func releaseKey(repository, task, gate string) string {
	return strings.ToLower(repository) + "/" + task + "/" + gate
}

// taskKey names a task across the harness's readers (plays, progress records, agent-play status): GitHub
// treats a repository's name without regard to case, so the key does too.
func taskKey(repository string, task any) string {
	return strings.ToLower(repository) + "/" + fmt.Sprint(task)
}
