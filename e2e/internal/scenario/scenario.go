// Package scenario drives the simulator's scenario files (examples/scenarios/*/scenario.yaml, format in
// docs/simulate.md) on the real controllers: each step becomes what it stands for on a cluster (a signed
// webhook delivery, the stub CodeRun controller ending a CodeRun, a Workflow deleted or recreated), the
// harness waits until the cluster is quiet, and the outcome is read back from the API server.
package scenario

import (
	"fmt"
	"os"
	"path/filepath"

	"sigs.k8s.io/yaml"
)

// TaskRef names a task of a repository.
type TaskRef struct {
	Repository string `json:"repository"`
	Task       int    `json:"task"`
	Reason     string `json:"reason,omitempty"`
}

// Play is a play that exists when the scenario starts.
type Play struct {
	Repository string            `json:"repository"`
	Task       int               `json:"task"`
	Stage      string            `json:"stage"`
	Parameters map[string]string `json:"parameters,omitempty"`
}

// Step is one step; exactly one kind is set.
type Step struct {
	Github          string   `json:"github,omitempty"`
	Payload         string   `json:"payload,omitempty"`
	Delivery        string   `json:"delivery,omitempty"`
	TriggerFailures int      `json:"triggerFailures,omitempty"`
	AgentDone       *TaskRef `json:"agentDone,omitempty"`
	AgentFailed     *TaskRef `json:"agentFailed,omitempty"`
	DeletePlay      *TaskRef `json:"deletePlay,omitempty"`
	ResumeFromState *TaskRef `json:"resumeFromState,omitempty"`
	Restart         *TaskRef `json:"restart,omitempty"`
	// ReapplyTemplates is `reapplyTemplates: {}`: the WorkflowTemplates applied again, changed.
	ReapplyTemplates *struct{} `json:"reapplyTemplates,omitempty"`
	// EvictChunkWatcher evicts the pod of a project's wait-chunk step watching a chunk (project.go).
	EvictChunkWatcher *ChunkRef `json:"evictChunkWatcher,omitempty"`
}

// Scenario is a scenario file.
type Scenario struct {
	Name  string `json:"-"`
	Dir   string `json:"-"`
	File  string `json:"-"`
	Plays []Play `json:"plays"`
	// Projects are submitted after the plays, before the first step (project.go).
	Projects []ProjectRef `json:"projects,omitempty"`
	Steps    []Step       `json:"steps"`
}

// Load reads a scenario file (the simulator validates the same file; this reads what the harness needs).
func Load(file string) (*Scenario, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var s Scenario
	if err := yaml.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	s.File = file
	s.Dir = filepath.Dir(file)
	s.Name = filepath.Base(s.Dir)
	return &s, nil
}

// Describe names a step for the log.
func (st Step) Describe(i int) string {
	switch {
	case st.Github != "":
		return fmt.Sprintf("step %d: github %s %s", i, st.Github, st.Payload)
	case st.AgentDone != nil:
		return fmt.Sprintf("step %d: agentDone task %d", i, st.AgentDone.Task)
	case st.AgentFailed != nil:
		return fmt.Sprintf("step %d: agentFailed task %d (%s)", i, st.AgentFailed.Task, st.AgentFailed.Reason)
	case st.DeletePlay != nil:
		return fmt.Sprintf("step %d: deletePlay task %d", i, st.DeletePlay.Task)
	case st.ResumeFromState != nil:
		return fmt.Sprintf("step %d: resumeFromState task %d", i, st.ResumeFromState.Task)
	case st.Restart != nil:
		return fmt.Sprintf("step %d: restart task %d", i, st.Restart.Task)
	case st.ReapplyTemplates != nil:
		return fmt.Sprintf("step %d: reapplyTemplates", i)
	case st.EvictChunkWatcher != nil:
		return fmt.Sprintf("step %d: evictChunkWatcher %s chunk %d", i, st.EvictChunkWatcher.Project, st.EvictChunkWatcher.Chunk)
	}
	return fmt.Sprintf("step %d: unknown", i)
}
