package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"cdk8s-agent-play/e2e/internal/cluster"
	"cdk8s-agent-play/e2e/internal/scenario"
	"cdk8s-agent-play/e2e/internal/upstream"
)

// group is the scenarios that run under one configuration of the workflow controller, which is
// controller-wide: the groups run one after the other, the controller restarted with the next group's
// configuration in between (every slot idle), each group's scenarios as many at once as there are slots.
type group struct {
	config  upstream.ControllerConfig
	entries []int
}

// groupByController groups the chosen entries by their controller configuration (an entry without one
// takes fallback), in the order of their first entry, so that the list's default scenarios run first
// and a run of the default alone never restarts the controller.
func groupByController(chosen []entry, fallback upstream.ControllerConfig) []group {
	var groups []group
	index := map[upstream.ControllerConfig]int{}
	for i, e := range chosen {
		cfg := fallback
		if e.Controller != nil {
			cfg = *e.Controller
		}
		g, ok := index[cfg]
		if !ok {
			g = len(groups)
			index[cfg] = g
			groups = append(groups, group{config: cfg})
		}
		groups[g].entries = append(groups[g].entries, i)
	}
	if len(groups) == 0 {
		groups = []group{{config: fallback}}
	}
	return groups
}

// runGroups runs each group on the cluster (started with the first group's configuration) and gives
// the results in the order of chosen.
func runGroups(ctx context.Context, c *cluster.Cluster, o runOptions, slots []slot, chosen []entry, groups []group) []result {
	results := make([]result, len(chosen))
	current := groups[0].config
	for _, g := range groups {
		entries := make([]entry, len(g.entries))
		for k, i := range g.entries {
			entries[k] = chosen[i]
		}
		var rs []result
		if g.config != current {
			t0 := time.Now()
			if err := c.RestartWorkflowController(ctx, g.config); err != nil {
				rs = make([]result, len(entries))
				for k, e := range entries {
					rs[k] = result{Name: e.Name, Expect: e.Expect, Controller: g.config.String(), Error: "the workflow controller did not restart with " + g.config.String() + ": " + err.Error()}
				}
			} else {
				current = g.config
				fmt.Fprintf(o.log, "%s workflow controller restarted with %s in %s\n", time.Now().Format("15:04:05"), g.config, time.Since(t0).Round(100*time.Millisecond))
			}
		}
		if rs == nil {
			rs = runAll(ctx, c, o, slots, entries, g.config)
		}
		for k, i := range g.entries {
			results[i] = rs[k]
		}
	}
	return results
}

// playExpectation is what every play of a scenario must come to on the real controllers: a known
// finding's outcome (a phase and the controller's message), checked beside the comparison with the
// simulator, so that `expect: disagree` passes only for the disagreement the finding explains.
type playExpectation struct {
	// Phase is the Workflow's status.phase (Succeeded, Failed, Error, Running).
	Phase string `json:"phase"`
	// Message is text the Workflow's status.message must contain.
	Message string `json:"message,omitempty"`
}

// check fails when a play of the outcome is not as expected.
func (x *playExpectation) check(o *scenario.Outcome) error {
	if len(o.Plays) == 0 {
		return fmt.Errorf("plays: the scenario has no play to check: give it a play, or take `plays` off its entry in e2e/scenarios.yaml")
	}
	var bad []string
	for _, p := range o.Plays {
		if p.Phase != x.Phase || !strings.Contains(p.Message, x.Message) {
			bad = append(bad, fmt.Sprintf("%s task %d: phase %q, message %q", p.Repository, p.Task, p.Phase, p.Message))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("plays: expected phase %q with a message containing %q; %s", x.Phase, x.Message, strings.Join(bad, "; "))
	}
	return nil
}
