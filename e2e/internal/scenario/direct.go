package scenario

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"cdk8s-agent-play/e2e/internal/fakegithub"
	"cdk8s-agent-play/e2e/internal/kube"
	"cdk8s-agent-play/e2e/internal/platformkeys"
)

// Direct agents (docs/executors.md): an agent stage's attempt is a pod of the play running the agent's CLI,
// here the fake CLI (e2e/fakes/agent-cli), which reports its run to the fake GitHub and waits there for the
// scenario's agentDone or agentFailed. The harness records every such pod as the simulator reports its
// pods: stage, agent, CLI, round, attempt, whether the step started a new session or resumed one, and how
// the pod ended. It also checks what the agent's container holds (issue 22, item 2): no service-account
// token in the CLI's container, while Argo's init and wait containers have the executor's.

// AgentPodOutcome is one direct agent pod, as the comparison sees it.
type AgentPodOutcome struct {
	Repository string `json:"repository"`
	Task       int    `json:"task"`
	Stage      string `json:"stage"`
	Agent      string `json:"agent"`
	CLI        string `json:"cli"`
	Round      int    `json:"round"`
	Attempt    int    `json:"attempt"`
	// Session is "started" or "resumed" (what the step asked of the CLI), "none" when the CLI never ran.
	Session string `json:"session"`
	Phase   string `json:"phase"`
}

// agentPod is what the harness saw of one direct agent pod.
type agentPod struct {
	name    string
	created metav1.Time
	outcome AgentPodOutcome
	// gone is set once the pod has left the API server.
	gone bool
}

// serviceAccountDir is where the kubelet mounts a pod's service-account token, CA and namespace.
const serviceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount"

// retryIndex reads the attempt of a retried node from its name: `...agent(1)` is the second attempt.
var retryIndex = regexp.MustCompile(`\((\d+)\)$`)

// directAgentPod tells a direct agent's pod: the direct script template labels it with the agent's
// GitHub App and stage (constructs/workflows/direct-agent-run.ts); no other pod of the platform has both.
func directAgentPod(p *corev1.Pod) bool {
	_, app := p.Labels[platformkeys.CodeRunLabelGithubApp]
	_, stage := p.Labels[platformkeys.CodeRunLabelStage]
	_, wf := p.Labels[kube.ArgoLabelWorkflow]
	return app && stage && wf
}

// noteAgentPod records a direct agent pod as it is now, and the first time checks where its containers
// get a service-account token. repositories maps the Workflows' repository labels to the scenario's names.
// A pod is known by its uid: a play recreated under its name (a remediation round) makes pods under the
// names its predecessor's had (argo-workflows `workflow/util/pod_name.go`, GeneratePodName).
func (r *Runner) noteAgentPod(p *corev1.Pod, repositories map[string]string) {
	if !directAgentPod(p) {
		return
	}
	if r.agentPods == nil {
		r.agentPods = map[string]*agentPod{}
	}
	rec := r.agentPods[string(p.UID)]
	if rec == nil {
		task, _ := strconv.Atoi(p.Labels[platformkeys.PlayLabelTaskID])
		round, _ := strconv.Atoi(p.Labels[platformkeys.PlayLabelRound])
		attempt := 1
		if m := retryIndex.FindStringSubmatch(p.Annotations[kube.ArgoAnnotationNodeName]); m != nil {
			n, _ := strconv.Atoi(m[1])
			attempt = n + 1
		}
		rec = &agentPod{name: p.Name, created: p.CreationTimestamp, outcome: AgentPodOutcome{
			Repository: repositories[p.Labels[kube.ArgoLabelWorkflow]], Task: task, Stage: p.Labels[platformkeys.CodeRunLabelStage],
			Agent: p.Labels[platformkeys.CodeRunLabelGithubApp], Round: round, Attempt: attempt, Session: "none",
		}}
		r.agentPods[string(p.UID)] = rec
		r.directProblems = append(r.directProblems, tokenMounts(p)...)
	}
	rec.outcome.Phase = podPhase(p)
}

// podPhase is how the simulator names a direct agent pod's state: Running, Succeeded, Failed, Evicted,
// or Stopped (its CLI ended by SIGTERM or SIGINT: the play was stopped or deleted).
func podPhase(p *corev1.Pod) string {
	switch p.Status.Phase {
	case corev1.PodSucceeded:
		return "Succeeded"
	case corev1.PodFailed:
		if p.Status.Reason == "Evicted" {
			return "Evicted"
		}
		for _, c := range p.Status.ContainerStatuses {
			if t := c.State.Terminated; c.Name == "main" && t != nil && (t.ExitCode == 143 || t.ExitCode == 130) {
				return "Stopped"
			}
		}
		return "Failed"
	}
	if p.DeletionTimestamp != nil {
		return "Stopped"
	}
	return "Running"
}

// tokenMounts checks a direct agent pod (issue 22, item 2): the agent's container (main) mounts nothing
// at the service-account path, Argo's init and wait do (they report the step's results with the
// executor's token).
func tokenMounts(p *corev1.Pod) []string {
	var problems []string
	mounts := func(c corev1.Container) bool {
		for _, m := range c.VolumeMounts {
			if strings.HasPrefix(m.MountPath, serviceAccountDir) {
				return true
			}
		}
		return false
	}
	seen := map[string]bool{}
	for _, c := range append(append([]corev1.Container{}, p.Spec.InitContainers...), p.Spec.Containers...) {
		seen[c.Name] = true
		switch has := mounts(c); {
		case c.Name == "main" && has:
			problems = append(problems, fmt.Sprintf("pod %s: the agent's container main mounts a service-account token", p.Name))
		case (c.Name == "init" || c.Name == "wait") && !has:
			problems = append(problems, fmt.Sprintf("pod %s: Argo's %s container has no service-account token to report with", p.Name, c.Name))
		}
	}
	for _, name := range []string{"init", "wait", "main"} {
		if !seen[name] {
			problems = append(problems, fmt.Sprintf("pod %s: no container %s", p.Name, name))
		}
	}
	return problems
}

// directOutcome gives the direct agent pods (with what their CLIs reported), and what the CLIs found that
// they must not have: a token in their container, a patch of their play that the API server took, work
// they could not push.
func (r *Runner) directOutcome() ([]AgentPodOutcome, []string) {
	runs := map[string]fakegithub.AgentRun{}
	if r.env.Agents != nil {
		for _, run := range r.env.Agents.Runs() {
			runs[run.PodUID] = run
		}
	}
	problems := append([]string{}, r.directProblems...)
	var out []AgentPodOutcome
	for _, uid := range r.agentPodsInOrder() {
		rec := r.agentPods[uid]
		o := rec.outcome
		if rec.gone && o.Phase == "Running" {
			o.Phase = "Stopped"
		}
		if run, ok := runs[uid]; ok {
			o.Agent, o.CLI = run.Agent, run.CLI
			o.Session = map[string]string{"spawn": "started", "resume": "resumed"}[run.Mode]
			problems = append(problems, probeProblems(rec.name, run.Probe)...)
		}
		out = append(out, o)
	}
	return out, problems
}

// agentPodsInOrder gives the uids of the agent pods seen, by name and, for one name, oldest first.
func (r *Runner) agentPodsInOrder() []string {
	return slices.SortedFunc(maps.Keys(r.agentPods), func(a, b string) int {
		x, y := r.agentPods[a], r.agentPods[b]
		if c := strings.Compare(x.name, y.name); c != 0 {
			return c
		}
		if c := x.created.Time.Compare(y.created.Time); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
}

// probeProblems says what a fake CLI's probe found that a direct agent must not have.
func probeProblems(pod string, p *fakegithub.Probe) []string {
	if p == nil {
		return nil
	}
	var out []string
	if p.TokenFile {
		out = append(out, fmt.Sprintf("pod %s: the agent's CLI found a service-account token at %s/token", pod, serviceAccountDir))
	}
	if p.APIStatus != 401 && p.APIStatus != 403 {
		out = append(out, fmt.Sprintf("pod %s: the agent's CLI patched its play and the API server answered %d (want 401 or 403; 0: not reached)", pod, p.APIStatus))
	}
	if p.Error != "" {
		out = append(out, fmt.Sprintf("pod %s: the agent's work: %s", pod, p.Error))
	}
	return out
}

// markGoneAgentPods notes the direct agent pods no longer listed (deleted with their play); listed holds
// the uids of the pods listed.
func (r *Runner) markGoneAgentPods(listed map[string]bool) {
	for uid, rec := range r.agentPods {
		if !listed[uid] {
			rec.gone = true
		}
	}
}

// agentWaits tells whether a running pod's fake CLI waits for the scenario (it is at rest).
func (r *Runner) agentWaits(p *corev1.Pod) bool {
	return r.env.Agents != nil && r.env.Agents.Waiting(string(p.UID))
}

// sessionSummary counts each agent's sessions: `rex 1 started 2 resumed`.
func sessionSummary(pods []AgentPodOutcome) string {
	type count struct{ started, resumed int }
	counts := map[string]*count{}
	var agents []string
	for _, p := range pods {
		c := counts[p.Agent]
		if c == nil {
			c = &count{}
			counts[p.Agent] = c
			agents = append(agents, p.Agent)
		}
		switch p.Session {
		case "started":
			c.started++
		case "resumed":
			c.resumed++
		}
	}
	parts := make([]string, 0, len(agents))
	for _, a := range agents {
		parts = append(parts, fmt.Sprintf("%s %d started %d resumed", a, counts[a].started, counts[a].resumed))
	}
	return strings.Join(parts, ", ")
}

// agentPodKeys is the comparable form of a list of direct agent pods.
func agentPodKeys(list []AgentPodOutcome) string {
	keys := make([]string, 0, len(list))
	for _, p := range list {
		keys = append(keys, fmt.Sprintf("%s#%d:r%d:%s:%s(%s)#%d:%s:%s", strings.ToLower(p.Repository), p.Task, p.Round, p.Stage, p.Agent, p.CLI, p.Attempt, p.Session, p.Phase))
	}
	sort.Strings(keys)
	return strings.Join(keys, " ")
}
