// Package coderun is the stub CodeRun controller: the platform's agent stages create CodeRuns
// (agents.platform/v1) and wait for status.phase; the real controller runs an agent's CLI for each. Here a
// scenario says when an agent is done or failed, and the stub writes that phase on the task's live
// CodeRuns; a new CodeRun is marked Running, as the real controller marks it once its job starts.
package coderun

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/metadata"

	"cdk8s-agent-play/e2e/internal/platformkeys"
)

// workflows is Argo's Workflow resource.
var workflows = schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "workflows"}

// Resource is the CodeRun resource.
var Resource = schema.GroupVersionResource{Group: "agents.platform", Version: "v1", Resource: "coderuns"}

// Stub is the stub controller of one namespace. It also keeps the history of every CodeRun it saw (a
// CodeRun deleted before it ended counts as Cancelled: the platform cancels by deleting; the CodeRuns of a
// deleted play leave the history, as they leave the simulator's report), and the most
// CodeRuns live at once for one stage and agent of one play.
type Stub struct {
	Dynamic dynamic.Interface
	// Metadata lists the Workflows by their metadata only (their UIDs are all the stub needs of them; the
	// whole objects, listed five times a second, cost more than the scenario's pods).
	Metadata  metadata.Interface
	Namespace string

	mu       sync.Mutex
	seen     map[string]*Record
	order    []string
	mostLive int
}

// Record is what the stub saw of one CodeRun.
type Record struct {
	Name, Repository, Task, Stage, App, Round string
	// WorkflowUID is the play's that created it (its workflow-uid label).
	WorkflowUID    string
	ContextVersion int64
	Phase          string
	Deleted        bool
}

// Reset forgets the history (a new scenario starts).
func (s *Stub) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen, s.order, s.mostLive = map[string]*Record{}, nil, 0
}

// History gives every CodeRun seen, in the order first seen, and the most live at once.
func (s *Stub) History() ([]Record, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Record, 0, len(s.order))
	for _, uid := range s.order {
		out = append(out, *s.seen[uid])
	}
	return out, s.mostLive
}

// observe updates the history from the CodeRuns listed; plays holds the UIDs of the Workflows that exist.
func (s *Stub) observe(items []unstructured.Unstructured, plays map[string]bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen == nil {
		s.seen = map[string]*Record{}
	}
	present := map[string]bool{}
	live := map[string]int{}
	for i := range items {
		cr := &items[i]
		uid := string(cr.GetUID())
		present[uid] = true
		rec, ok := s.seen[uid]
		if !ok {
			l := cr.GetLabels()
			cv, _, _ := unstructured.NestedInt64(cr.Object, "spec", "contextVersion")
			repo, _, _ := unstructured.NestedString(cr.Object, "spec", "repositoryUrl")
			rec = &Record{Name: cr.GetName(), Repository: repo, WorkflowUID: l[platformkeys.CodeRunLabelWorkflowUID], Task: l[platformkeys.CodeRunLabelTaskID], Stage: l[platformkeys.CodeRunLabelStage], App: l[platformkeys.CodeRunLabelGithubApp], Round: l[platformkeys.CodeRunLabelRound], ContextVersion: cv}
			s.seen[uid] = rec
			s.order = append(s.order, uid)
		}
		phase, _, _ := unstructured.NestedString(cr.Object, "status", "phase")
		if phase != "" {
			rec.Phase = phase
		}
		if !Terminal(phase) {
			live[cr.GetLabels()[platformkeys.CodeRunLabelWorkflowUID]+"/"+rec.Stage+"/"+rec.App]++
		}
	}
	for _, n := range live {
		s.mostLive = max(s.mostLive, n)
	}
	for uid, rec := range s.seen {
		if !plays[rec.WorkflowUID] {
			// Its play is deleted: it leaves the history with it, as the simulator's report drops the
			// CodeRuns of a deleted play (src/simulate/argo-model.ts, deleted), whatever their phase.
			s.dropLocked(uid)
			continue
		}
		if !present[uid] && !rec.Deleted {
			rec.Deleted = true
			if !Terminal(rec.Phase) {
				rec.Phase = "Cancelled"
			}
		}
	}
}

// dropLocked forgets a CodeRun.
func (s *Stub) dropLocked(uid string) {
	delete(s.seen, uid)
	for i, u := range s.order {
		if u == uid {
			s.order = append(s.order[:i], s.order[i+1:]...)
			break
		}
	}
}

// Terminal tells whether a phase is final.
func Terminal(phase string) bool {
	return phase == "Succeeded" || phase == "Failed" || phase == "Cancelled"
}

// Run marks every new CodeRun Running until ctx ends (polling every 200 ms: a scenario step waits while
// a CodeRun is not marked).
func (s *Stub) Run(ctx context.Context) {
	for {
		// The CodeRuns first: one gone from this list whose play is gone from the later list of Workflows
		// was deleted with it (the garbage collector deletes it after its play).
		list, err := s.Dynamic.Resource(Resource).Namespace(s.Namespace).List(ctx, metav1.ListOptions{})
		wfs, werr := s.Metadata.Resource(workflows).Namespace(s.Namespace).List(ctx, metav1.ListOptions{})
		if err == nil && werr == nil {
			plays := map[string]bool{}
			for _, w := range wfs.Items {
				if w.GetDeletionTimestamp() == nil {
					plays[string(w.GetUID())] = true
				}
			}
			s.observe(list.Items, plays)
			for i := range list.Items {
				cr := &list.Items[i]
				if phase, _, _ := unstructured.NestedString(cr.Object, "status", "phase"); phase == "" && cr.GetDeletionTimestamp() == nil {
					_ = s.setPhase(ctx, cr, "Running", "started by the stub CodeRun controller")
				}
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// Live lists the task's CodeRuns that have not ended, oldest first.
func (s *Stub) Live(ctx context.Context, selector string) ([]unstructured.Unstructured, error) {
	list, err := s.Dynamic.Resource(Resource).Namespace(s.Namespace).List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return nil, err
	}
	var out []unstructured.Unstructured
	for _, cr := range list.Items {
		phase, _, _ := unstructured.NestedString(cr.Object, "status", "phase")
		if !Terminal(phase) && cr.GetDeletionTimestamp() == nil {
			out = append(out, cr)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a := out[i].GetCreationTimestamp()
		return a.Before(ptr(out[j].GetCreationTimestamp()))
	})
	return out, nil
}

func ptr(t metav1.Time) *metav1.Time { return &t }

// Finish ends the live CodeRuns matching selector with phase; it fails when there is none.
func (s *Stub) Finish(ctx context.Context, selector, phase, message string) ([]string, error) {
	live, err := s.Live(ctx, selector)
	if err != nil {
		return nil, err
	}
	if len(live) == 0 {
		return nil, fmt.Errorf("no live CodeRun matches %s", selector)
	}
	var names []string
	for i := range live {
		if err := s.setPhase(ctx, &live[i], phase, message); err != nil {
			return names, err
		}
		names = append(names, live[i].GetName())
	}
	return names, nil
}

func (s *Stub) setPhase(ctx context.Context, cr *unstructured.Unstructured, phase, message string) error {
	cur := cr.DeepCopy()
	_ = unstructured.SetNestedField(cur.Object, phase, "status", "phase")
	_ = unstructured.SetNestedField(cur.Object, message, "status", "message")
	_, err := s.Dynamic.Resource(Resource).Namespace(s.Namespace).UpdateStatus(ctx, cur, metav1.UpdateOptions{})
	return err
}
