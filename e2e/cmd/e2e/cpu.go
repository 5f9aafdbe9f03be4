package main

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"
)

// cpuSummary gives the processor time of the whole run (this process and every process it started and
// waited for: the control plane, the event buses, every container of the process node), and what share
// of the machine's processors over wall that is: a figure of the run's work that the machine's load
// changes far less than its duration. Call it once the cluster has stopped.
// parts (Cluster.CPU) splits it: the control plane's processes, the buses, the pods by namespace; the
// harness itself (with the process node, in this process) and the rest (agent-play, go list) follow.
func cpuSummary(wall time.Duration, parts map[string]time.Duration) string {
	var self, children syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &self) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children) != nil {
		return "processor time unknown"
	}
	total := cpuOf(self) + cpuOf(children)
	names := make([]string, 0, len(parts))
	rest := cpuOf(children)
	for name, d := range parts {
		names = append(names, name)
		rest -= d
	}
	sort.Slice(names, func(i, j int) bool { return parts[names[i]] > parts[names[j]] })
	split := []string{"harness and node " + cpuOf(self).Round(time.Second).String()}
	for _, name := range names {
		split = append(split, name+" "+parts[name].Round(time.Second).String())
	}
	split = append(split, "other programs "+rest.Round(time.Second).String())
	return fmt.Sprintf("processor time %s (%.2f of the %d processors over the run): %s", total.Round(time.Second),
		total.Seconds()/wall.Seconds(), runtime.NumCPU(), strings.Join(split, ", "))
}

func cpuOf(u syscall.Rusage) time.Duration {
	return time.Duration(u.Utime.Nano()) + time.Duration(u.Stime.Nano())
}
