package scenario

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// agentPlay runs agent-play's own command line (build/cli.cjs of the repository) and gives its standard output.
func agentPlay(ctx context.Context, repoDir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "node", append([]string{filepath.Join(repoDir, "build", "cli.cjs")}, args...)...)
	cmd.Dir = repoDir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("agent-play %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.Bytes(), nil
}

// agentPlay runs agent-play for the scenario.
func (r *Runner) agentPlay(ctx context.Context, args ...string) ([]byte, error) {
	return agentPlay(ctx, r.env.RepoDir, args...)
}

// clusterArgs points agent-play at the scenario's API server and namespace, as a user's kubeconfig does.
func (r *Runner) clusterArgs() []string {
	return []string{"--kubeconfig", r.env.Kubeconfig, "--namespace", r.env.Namespace}
}

// resumeFromState recreates the task's play with `agent-play resume --apply --yes`: the CLI reads the
// progress ConfigMaps from the API server and creates the Workflow itself (its own cluster client).
func (r *Runner) resumeFromState(ctx context.Context, t TaskRef) error {
	args := append([]string{"resume", "--repository", t.Repository, "--task", strconv.Itoa(t.Task), "--apply", "--yes"}, r.clusterArgs()...)
	if r.env.Config != "" {
		args = append(args, "--config", r.env.Config)
	}
	out, err := r.agentPlay(ctx, args...)
	if err != nil {
		return err
	}
	r.logf("%s", strings.TrimSpace(string(out)))
	return nil
}

// statusReport is the part of `agent-play status --format json` the check reads.
type statusReport struct {
	Tasks []struct {
		Repository string `json:"repository"`
		Task       string `json:"task"`
		Stage      string `json:"stage"`
	} `json:"tasks"`
}

// checkStatus runs `agent-play status --format json` against the API server and lists where it differs
// from the plays (statusDiffers).
func (r *Runner) checkStatus(ctx context.Context, plays []PlayOutcome) ([]string, error) {
	out, err := r.agentPlay(ctx, append([]string{"status", "--format", "json"}, r.clusterArgs()...)...)
	if err != nil {
		return nil, err
	}
	var rep statusReport
	if err := json.Unmarshal(out, &rep); err != nil {
		return nil, fmt.Errorf("agent-play status --format json: %w", err)
	}
	return statusDiffers(rep, plays), nil
}

// statusDiffers lists every task whose stage in the status report differs from its newest play's
// `current-stage` label, and every play the report has no record of; a task with no play is not compared.
func statusDiffers(rep statusReport, plays []PlayOutcome) []string {
	recorded := map[string]string{}
	for _, t := range rep.Tasks {
		recorded[taskKey(t.Repository, t.Task)] = t.Stage
	}
	var d []string
	for _, p := range plays {
		if p.Stage == noPlay {
			continue
		}
		key := taskKey(p.Repository, p.Task)
		stage, ok := recorded[key]
		switch {
		case !ok:
			d = append(d, fmt.Sprintf("agent-play status: no record of task %s (its play is at %s)", key, p.Stage))
		case stage != p.Stage:
			d = append(d, fmt.Sprintf("agent-play status: task %s at %s, its play at %s", key, stage, p.Stage))
		}
	}
	sort.Strings(d)
	return d
}
