package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// simReport is the part of `agent-play simulate --json` the comparison reads.
type simReport struct {
	Plays []struct {
		Repository string `json:"repository"`
		Task       int    `json:"task"`
		Stage      string `json:"stage"`
		Status     string `json:"status"`
		Round      int    `json:"round"`
	} `json:"plays"`
	Steps []struct {
		Recorded []struct {
			Repository string `json:"repository"`
			Task       int    `json:"task"`
			Gate       string `json:"gate"`
		} `json:"recorded"`
	} `json:"steps"`
	CodeRuns []struct {
		Repository     string `json:"repository"`
		Stage          string `json:"stage"`
		ContextVersion int64  `json:"contextVersion"`
		Phase          string `json:"phase"`
	} `json:"coderuns"`
	MostLive int               `json:"mostLiveCodeRuns"`
	Pods     []AgentPodOutcome `json:"pods"`
	Projects []ProjectOutcome  `json:"projects"`
}

// Simulate runs the simulator on the scenario (with the platform's config when there is one).
func Simulate(ctx context.Context, repoDir, scenarioFile, config string) (*Outcome, error) {
	args := []string{"simulate", scenarioFile, "--json"}
	if config != "" {
		args = append(args, "--config", config)
	}
	out, err := agentPlay(ctx, repoDir, args...)
	if err != nil {
		return nil, err
	}
	var rep simReport
	if err := json.Unmarshal(out, &rep); err != nil {
		return nil, fmt.Errorf("agent-play simulate --json: %w", err)
	}
	o := &Outcome{MostLive: rep.MostLive, Pods: rep.Pods, Projects: rep.Projects}
	for _, p := range rep.Plays {
		o.Plays = append(o.Plays, PlayOutcome{Repository: p.Repository, Task: p.Task, Stage: p.Stage, Status: p.Status, Round: p.Round})
	}
	seen := map[string]bool{}
	for _, st := range rep.Steps {
		for _, rec := range st.Recorded {
			k := releaseKey(rec.Repository, strconv.Itoa(rec.Task), rec.Gate)
			if !seen[k] {
				seen[k] = true
				o.Releases = append(o.Releases, k)
			}
		}
	}
	sort.Strings(o.Releases)
	for _, c := range rep.CodeRuns {
		o.CodeRuns = append(o.CodeRuns, CodeRunOutcome{Repository: c.Repository, Stage: c.Stage, ContextVersion: c.ContextVersion, Phase: c.Phase})
	}
	return o, nil
}

// Summary is the one-line form of an outcome for the table.
func (o *Outcome) Summary() string {
	if o == nil {
		return "-"
	}
	var parts []string
	for _, p := range o.Plays {
		s := fmt.Sprintf("task %d %s", p.Task, p.Stage)
		if p.Status != "" {
			s += " " + p.Status
		}
		if p.Round > 1 {
			s += fmt.Sprintf(" round %d", p.Round)
		}
		parts = append(parts, s)
	}
	if len(o.Projects) > 0 {
		// A project's plays are many: the table names the project's facts instead of each play.
		parts = projectSummaries(o.Projects)
	}
	parts = append(parts, fmt.Sprintf("%d CodeRuns", len(o.CodeRuns)))
	if len(o.Pods) > 0 {
		parts = append(parts, fmt.Sprintf("%d agent pods (sessions: %s)", len(o.Pods), sessionSummary(o.Pods)))
	}
	return strings.Join(parts, "; ")
}

// Diff lists where two outcomes differ (empty: they agree): the stage, status and round of each play,
// the releases recorded, each CodeRun's stage, attempt (contextVersion) and phase, the most live at once.
func Diff(real, sim *Outcome) []string {
	var d []string
	simPlays := map[string]PlayOutcome{}
	for _, p := range sim.Plays {
		simPlays[fmt.Sprintf("%s/%d", p.Repository, p.Task)] = p
	}
	for _, p := range real.Plays {
		k := fmt.Sprintf("%s/%d", p.Repository, p.Task)
		s, ok := simPlays[k]
		switch {
		case !ok && p.Stage == noPlay:
			// Both have none (a play deleted and not recreated): the simulator lists only the plays it has.
			continue
		case !ok:
			d = append(d, fmt.Sprintf("task %s: no play in the simulator", k))
			continue
		case p.Stage == noPlay:
			d = append(d, fmt.Sprintf("task %s: no play on the real controllers, the simulator's at %s", k, s.Stage))
			continue
		}
		if p.Stage != s.Stage || p.Status != s.Status || max(p.Round, 1) != max(s.Round, 1) {
			d = append(d, fmt.Sprintf("task %d: real %s %s round %d (%s %s), simulator %s %s round %d",
				p.Task, p.Stage, p.Status, max(p.Round, 1), p.Phase, p.Message, s.Stage, s.Status, max(s.Round, 1)))
		}
	}
	if a, b := strings.Join(real.Releases, " "), strings.Join(sim.Releases, " "); a != b {
		d = append(d, fmt.Sprintf("releases recorded: real [%s], simulator [%s]", a, b))
	}
	d = append(d, real.PredecessorPods...)
	d = append(d, real.StatusDiffers...)
	d = append(d, real.RevisionDiffers...)
	d = append(d, real.ExitRecordDiffers...)
	d = append(d, real.GateNodesChanged...)
	if a, b := coderunKeys(real.CodeRuns), coderunKeys(sim.CodeRuns); a != b {
		d = append(d, fmt.Sprintf("CodeRuns: real [%s], simulator [%s]", a, b))
	}
	d = append(d, real.DirectProblems...)
	if a, b := agentPodKeys(real.Pods), agentPodKeys(sim.Pods); a != b {
		d = append(d, fmt.Sprintf("direct agent pods: real [%s], simulator [%s]", a, b))
	}
	d = append(d, diffProjects(real.Projects, sim.Projects)...)
	if real.MostLive != sim.MostLive {
		d = append(d, fmt.Sprintf("most live CodeRuns of one stage: real %d, simulator %d", real.MostLive, sim.MostLive))
	}
	return d
}

func coderunKeys(list []CodeRunOutcome) string {
	keys := make([]string, 0, len(list))
	for _, c := range list {
		keys = append(keys, fmt.Sprintf("%s:%s#%d:%s", strings.ToLower(c.Repository), c.Stage, c.ContextVersion, c.Phase))
	}
	sort.Strings(keys)
	return strings.Join(keys, " ")
}
