package node

import (
	"os"
	"time"
)

// cpuUse adds up the processor time of the containers that ended, by namespace: what the pods of a
// scenario cost the machine (its programs and everything they ran), a figure that does not depend on how
// loaded the machine was, unlike the time a scenario takes.
type cpuUse struct {
	byNamespace map[string]time.Duration
}

// addCPU counts an ended container's processor time (user and system, its reaped children included).
func (n *Node) addCPU(ns string, st *os.ProcessState) {
	if st == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.cpu.byNamespace == nil {
		n.cpu.byNamespace = map[string]time.Duration{}
	}
	n.cpu.byNamespace[ns] += st.UserTime() + st.SystemTime()
}

// CPU is the processor time of the namespace's containers that have ended so far.
func (n *Node) CPU(ns string) time.Duration {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.cpu.byNamespace[ns]
}

// CPUByNamespace is the processor time of every namespace's ended containers.
func (n *Node) CPUByNamespace() map[string]time.Duration {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make(map[string]time.Duration, len(n.cpu.byNamespace))
	for ns, d := range n.cpu.byNamespace {
		out[ns] = d
	}
	return out
}
