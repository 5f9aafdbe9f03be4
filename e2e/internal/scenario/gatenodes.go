package scenario

import (
	"fmt"
	"sort"
	"strings"
)

// gateNodes follows every gate (a Suspend node) of the plays from waiting to released (issue 22, item 8):
// the release (constructs/gate/gate-nodes.ts, a merge patch of the node's phase, finish time and
// message) must leave every other field the controller wrote on the node (failedPodRestarts,
// restartingPodUID where set; an Argo CLI of another version rewrote whole nodes and dropped the fields it
// did not know). Each look at the cluster (settle) records the fields of every waiting gate; a gate seen
// released without one of them is reported.
type gateNodes struct {
	// waiting holds the fields of each gate last seen waiting, by workflow UID and node id.
	waiting map[string][]string
	changed map[string]bool
}

// observe looks at one Workflow's nodes.
func (g *gateNodes) observe(workflow, uid string, nodes map[string]any) {
	for id, v := range nodes {
		n, _ := v.(map[string]any)
		if n == nil || n["type"] != "Suspend" {
			continue
		}
		key := uid + "/" + id
		if n["phase"] == "Running" {
			if g.waiting == nil {
				g.waiting = map[string][]string{}
			}
			g.waiting[key] = fieldsOf(n)
			continue
		}
		before, ok := g.waiting[key]
		if !ok {
			continue
		}
		delete(g.waiting, key)
		var lost []string
		for _, f := range before {
			if _, still := n[f]; !still {
				lost = append(lost, f)
			}
		}
		if len(lost) > 0 {
			if g.changed == nil {
				g.changed = map[string]bool{}
			}
			g.changed[fmt.Sprintf("workflow %s gate %v lost %s at its release", workflow, n["displayName"], strings.Join(lost, ", "))] = true
		}
	}
}

func fieldsOf(n map[string]any) []string {
	out := make([]string, 0, len(n))
	for k := range n {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// lost lists the gates released without a field they had while waiting.
func (g *gateNodes) lost() []string {
	out := make([]string, 0, len(g.changed))
	for k := range g.changed {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
