package fakegithub

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
)

// agentsPrefix is where the fake agent CLI (e2e/fakes/agent-cli) reports its run and waits for its orders.
// It is the harness's, not GitHub's: the CLI reaches it with the installation token its step got (GH_TOKEN),
// which names the namespace.
const agentsPrefix = "/_e2e/agents/"

// AgentRun is one run of a fake CLI, as it reported it: where it ran, what the direct step asked of it
// (a new session or a resumed one), and what it found.
type AgentRun struct {
	Pod string `json:"pod"`
	// PodUID is the pod the run is in, which the harness looks up by the name the CLI reports: a pod name
	// is not unique over time, since a play recreated under its name (a remediation round) makes its pods
	// under the names its predecessor's had (argo-workflows `workflow/util/pod_name.go`, GeneratePodName:
	// the workflow name, the template name and a hash of the node name).
	PodUID   string `json:"podUID"`
	Workflow string `json:"workflow"`
	Task     string `json:"task"`
	Stage    string `json:"stage"`
	Agent    string `json:"agent"`
	CLI      string `json:"cli"`
	Round    string `json:"round"`
	// Mode is "spawn" (a new session) or "resume".
	Mode    string `json:"mode"`
	Session string `json:"session"`
	// Probe is what the CLI found of its container and did (agentprobe.go); set when it waits.
	Probe *Probe `json:"probe,omitempty"`
	// Exit is the exit code the scenario gave it (nil: none yet).
	Exit *int `json:"exit,omitempty"`

	waiting bool
	verdict chan int
}

// Probe is what a fake CLI found in its container: whether a service-account token is mounted where the
// kubelet mounts one, what the API server answered when it tried to patch its play with what it holds,
// and the commit it pushed.
type Probe struct {
	TokenFile bool `json:"tokenFile"`
	// APIStatus is the HTTP status of the patch of its play (0: the API server could not be reached).
	APIStatus int    `json:"apiStatus"`
	Commit    string `json:"commit"`
	// Error is what failed in its work (a commit or push refused), "" when nothing did.
	Error string `json:"error,omitempty"`
}

// PodUIDLookup gives the uid of the namespace's pod of that name, as the API server has it now.
type PodUIDLookup func(pod string) (string, error)

// Agents are the fake CLI runs of one namespace.
type Agents struct {
	namespace string
	mu        sync.Mutex
	runs      []*AgentRun
	podUID    PodUIDLookup
}

func newAgents(namespace string) *Agents { return &Agents{namespace: namespace} }

// Reset forgets the runs (a new scenario starts in the namespace) and tells the pods of the runs to come
// with podUID.
func (a *Agents) Reset(podUID PodUIDLookup) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closeAllLocked()
	a.runs = nil
	a.podUID = podUID
}

func (a *Agents) closeAll() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closeAllLocked()
}

// closeAllLocked answers every waiting CLI with a failure (the harness is going).
func (a *Agents) closeAllLocked() {
	for _, r := range a.runs {
		if r.waiting && r.Exit == nil {
			code := 1
			r.Exit = &code
			r.verdict <- code
		}
	}
}

// Runs gives a copy of every run, in the order they started.
func (a *Agents) Runs() []AgentRun {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]AgentRun, 0, len(a.runs))
	for _, r := range a.runs {
		c := *r
		c.verdict = nil
		out = append(out, c)
	}
	return out
}

// Waiting tells whether the CLI of the pod with uid podUID waits for the scenario's order (it is at rest:
// only the scenario moves it).
func (a *Agents) Waiting(podUID string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, r := range a.runs {
		if r.PodUID == podUID && r.waiting && r.Exit == nil {
			return true
		}
	}
	return false
}

// Finish gives exit to the CLIs of workflow that wait, and names their pods; it fails when none waits.
func (a *Agents) Finish(workflow string, exit int) ([]string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var pods []string
	for _, r := range a.runs {
		if r.Workflow == workflow && r.waiting && r.Exit == nil {
			code := exit
			r.Exit = &code
			r.verdict <- exit
			pods = append(pods, r.Pod)
		}
	}
	if len(pods) == 0 {
		return nil, fmt.Errorf("no agent CLI of workflow %s waits", workflow)
	}
	sort.Strings(pods)
	return pods, nil
}

// Start records a new run, as a CLI's POST start does, and gives its pod's uid; a pod runs its CLI once
// (a retried attempt is a new pod, and so is the pod of a successor play that has the name of its
// predecessor's).
func (a *Agents) Start(run AgentRun) (string, error) {
	if run.Pod == "" || run.Workflow == "" || (run.Mode != "spawn" && run.Mode != "resume") {
		return "", fmt.Errorf("a run needs its pod, workflow and mode (spawn or resume)")
	}
	a.mu.Lock()
	lookup := a.podUID
	a.mu.Unlock()
	if lookup == nil {
		return "", fmt.Errorf("the harness tells no pods of namespace %s apart (Reset with a lookup)", a.namespace)
	}
	uid, err := lookup(run.Pod)
	if err != nil || uid == "" {
		return "", fmt.Errorf("pod %s: no uid: %v", run.Pod, err)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, r := range a.runs {
		if r.PodUID == uid {
			return "", fmt.Errorf("pod %s (uid %s) has run its CLI already", run.Pod, uid)
		}
	}
	run.PodUID = uid
	run.verdict = make(chan int, 1)
	run.Probe, run.Exit, run.waiting = nil, nil, false
	a.runs = append(a.runs, &run)
	return uid, nil
}

// wait records the probe of the CLI in the pod with uid podUID and marks it waiting; it gives the channel
// its order comes on.
func (a *Agents) wait(podUID string, probe Probe) (chan int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, r := range a.runs {
		if r.PodUID == podUID {
			p := probe
			r.Probe = &p
			r.waiting = true
			return r.verdict, nil
		}
	}
	return nil, fmt.Errorf("no run started in the pod with uid %q", podUID)
}

// stopWaiting marks a CLI no longer waiting (its request ended: the pod was stopped).
func (a *Agents) stopWaiting(podUID string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, r := range a.runs {
		if r.PodUID == podUID {
			r.waiting = false
		}
	}
}

// serveAgents answers the fake CLI: POST start (its run; answers the namespace and its pod's uid) and POST
// wait (its pod's uid and its probe; answers, once the scenario says so, the exit code).
func (s *Server) serveAgents(w http.ResponseWriter, r *http.Request) {
	auth := r.Header.Get("Authorization")
	token := auth[strings.IndexByte(auth, ' ')+1:]
	in := s.installationOf(token)
	if in == nil || !strings.Contains(auth, " ") {
		apiError(w, http.StatusUnauthorized, "no installation token")
		return
	}
	if r.Method != http.MethodPost {
		apiError(w, http.StatusMethodNotAllowed, "Method Not Allowed")
		return
	}
	agents := s.Agents(in.Namespace)
	switch strings.TrimPrefix(r.URL.Path, agentsPrefix) {
	case "start":
		var run AgentRun
		if err := json.NewDecoder(r.Body).Decode(&run); err != nil {
			apiError(w, http.StatusBadRequest, err.Error())
			return
		}
		uid, err := agents.Start(run)
		if err != nil {
			apiError(w, http.StatusConflict, err.Error())
			return
		}
		writeJSON(w, map[string]string{"namespace": in.Namespace, "podUID": uid})
	case "wait":
		var req struct {
			PodUID string `json:"podUID"`
			Probe  Probe  `json:"probe"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			apiError(w, http.StatusBadRequest, err.Error())
			return
		}
		ch, err := agents.wait(req.PodUID, req.Probe)
		if err != nil {
			apiError(w, http.StatusNotFound, err.Error())
			return
		}
		select {
		case code := <-ch:
			writeJSON(w, map[string]int{"exit": code})
		case <-r.Context().Done():
			agents.stopWaiting(req.PodUID)
		}
	default:
		apiError(w, http.StatusNotFound, "Not Found")
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
