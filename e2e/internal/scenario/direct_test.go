package scenario

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"cdk8s-agent-play/e2e/internal/fakegithub"
)

// agentPodOf is a direct agent's pod as Argo makes it: init, wait and main, the token mounted where asked.
func agentPodOf(tokenIn ...string) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "play-x-agent-1", UID: "uid-1", Labels: map[string]string{
		"github-app": "5DLabs-Rex", "workflow-stage": "implementation", "workflows.argoproj.io/workflow": "play-x", "task-id": "5", "round": "2",
	}, Annotations: map[string]string{"workflows.argoproj.io/node-name": "play-x.run-implementation.agent(1)"}}}
	with := map[string]bool{}
	for _, c := range tokenIn {
		with[c] = true
	}
	container := func(name string) corev1.Container {
		c := corev1.Container{Name: name, VolumeMounts: []corev1.VolumeMount{{Name: "var-run-argo", MountPath: "/var/run/argo"}}}
		if with[name] {
			c.VolumeMounts = append(c.VolumeMounts, corev1.VolumeMount{Name: "exec-sa-token", MountPath: serviceAccountDir})
		}
		return c
	}
	p.Spec.InitContainers = []corev1.Container{container("init")}
	p.Spec.Containers = []corev1.Container{container("wait"), container("main")}
	return p
}

func TestTokenMounts(t *testing.T) {
	if got := tokenMounts(agentPodOf("init", "wait")); len(got) != 0 {
		t.Fatalf("as the platform makes it: %v", got)
	}
	if got := tokenMounts(agentPodOf("init", "wait", "main")); len(got) != 1 || !strings.Contains(got[0], "main mounts") {
		t.Fatalf("a token in main: %v", got)
	}
	if got := tokenMounts(agentPodOf("init")); len(got) != 1 || !strings.Contains(got[0], "wait container has no") {
		t.Fatalf("no token in wait: %v", got)
	}
	p := agentPodOf("init", "wait")
	p.Spec.Containers = p.Spec.Containers[:1]
	if got := tokenMounts(p); len(got) != 1 || !strings.Contains(got[0], "no container main") {
		t.Fatalf("no main: %v", got)
	}
}

func TestNoteAgentPodAndOutcome(t *testing.T) {
	agents := fakegithub.New(t.TempDir()).Agents("agents")
	r := &Runner{env: Env{Agents: agents}}
	p := agentPodOf("init", "wait")
	p.Status.Phase = corev1.PodRunning
	r.noteAgentPod(p, map[string]string{"play-x": "5dlabs/cto-play-test"})
	other := agentPodOf("init", "wait")
	other.Labels = map[string]string{"workflows.argoproj.io/workflow": "play-x"}
	r.noteAgentPod(other, nil)
	if len(r.agentPods) != 1 {
		t.Fatalf("only a direct agent's pod is recorded: %v", r.agentPods)
	}
	// Deleted while running (the play stopped): Stopped, with no CLI report: session none.
	r.markGoneAgentPods(map[string]bool{})
	pods, problems := r.directOutcome()
	want := AgentPodOutcome{Repository: "5dlabs/cto-play-test", Task: 5, Stage: "implementation", Agent: "5DLabs-Rex", Round: 2, Attempt: 2, Session: "none", Phase: "Stopped"}
	if len(pods) != 1 || pods[0] != want || len(problems) != 0 {
		t.Fatalf("outcome: %+v %v", pods, problems)
	}
}

// A play recreated under its name (a remediation round) makes its agent pods under its predecessor's pod
// names: each pod is its own, with the run its CLI reported.
func TestAgentPodsOfOneNameInTwoRounds(t *testing.T) {
	agents := fakegithub.New(t.TempDir()).Agents("agents")
	uids := map[string]string{}
	agents.Reset(func(pod string) (string, error) { return uids[pod], nil })
	r := &Runner{env: Env{Agents: agents}}
	repos := map[string]string{"play-x": "5dlabs/cto-play-test"}
	run := fakegithub.AgentRun{Pod: "play-x-agent-1", Workflow: "play-x", Agent: "rex", CLI: "cursor", Mode: "spawn"}

	old := agentPodOf("init", "wait")
	old.Labels["round"], old.Status.Phase = "1", corev1.PodSucceeded
	old.CreationTimestamp = metav1.Unix(100, 0)
	uids[old.Name] = string(old.UID)
	if _, err := agents.Start(run); err != nil {
		t.Fatal(err)
	}
	r.noteAgentPod(old, repos)
	r.markGoneAgentPods(map[string]bool{})

	successor := agentPodOf("init", "wait")
	successor.UID, successor.Labels["round"], successor.Status.Phase = "uid-2", "2", corev1.PodRunning
	successor.CreationTimestamp = metav1.Unix(200, 0)
	uids[successor.Name] = string(successor.UID)
	run.Mode = "resume"
	if _, err := agents.Start(run); err != nil {
		t.Fatalf("the successor's pod runs its CLI too: %v", err)
	}
	r.noteAgentPod(successor, repos)
	r.markGoneAgentPods(map[string]bool{string(successor.UID): true})

	pods, problems := r.directOutcome()
	if len(pods) != 2 || len(problems) != 0 {
		t.Fatalf("two pods of one name: %+v %v", pods, problems)
	}
	if p := pods[0]; p.Round != 1 || p.Session != "started" || p.Phase != "Succeeded" {
		t.Errorf("the predecessor's pod: %+v", p)
	}
	if p := pods[1]; p.Round != 2 || p.Session != "resumed" || p.Phase != "Running" {
		t.Errorf("the successor's pod: %+v", p)
	}
}

func TestPodPhase(t *testing.T) {
	p := agentPodOf()
	for _, c := range []struct {
		phase  corev1.PodPhase
		reason string
		exit   int32
		want   string
	}{
		{corev1.PodRunning, "", 0, "Running"},
		{corev1.PodSucceeded, "", 0, "Succeeded"},
		{corev1.PodFailed, "", 1, "Failed"},
		{corev1.PodFailed, "Evicted", 137, "Evicted"},
		{corev1.PodFailed, "", 143, "Stopped"},
	} {
		p.Status = corev1.PodStatus{Phase: c.phase, Reason: c.reason, ContainerStatuses: []corev1.ContainerStatus{
			{Name: "main", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: c.exit}}},
		}}
		if got := podPhase(p); got != c.want {
			t.Errorf("%s %s %d: %s, want %s", c.phase, c.reason, c.exit, got, c.want)
		}
	}
}

func TestProbeProblems(t *testing.T) {
	if got := probeProblems("p", &fakegithub.Probe{APIStatus: 403}); len(got) != 0 {
		t.Fatalf("refused and no token: %v", got)
	}
	got := probeProblems("p", &fakegithub.Probe{TokenFile: true, APIStatus: 200, Error: "git push: 403"})
	if len(got) != 3 {
		t.Fatalf("a token, a patch taken, a push refused: %v", got)
	}
	if got := probeProblems("p", &fakegithub.Probe{}); len(got) != 1 || !strings.Contains(got[0], "not reached") {
		t.Fatalf("the API server not reached: %v", got)
	}
}

func TestDiffComparesAgentPods(t *testing.T) {
	pod := AgentPodOutcome{Repository: "5dlabs/cto-play-test", Task: 5, Stage: "implementation", Agent: "rex", CLI: "cursor", Round: 1, Attempt: 1, Session: "started", Phase: "Succeeded"}
	resumed := pod
	resumed.Session, resumed.Attempt = "resumed", 2
	real := &Outcome{Pods: []AgentPodOutcome{pod, resumed}}
	if d := Diff(real, &Outcome{Pods: []AgentPodOutcome{resumed, pod}}); len(d) != 0 {
		t.Fatalf("the same pods in another order: %v", d)
	}
	started := resumed
	started.Session = "started"
	if d := Diff(real, &Outcome{Pods: []AgentPodOutcome{pod, started}}); len(d) != 1 || !strings.Contains(d[0], "direct agent pods") {
		t.Fatalf("a session started again: %v", d)
	}
	if s := sessionSummary(real.Pods); s != "rex 1 started 1 resumed" {
		t.Fatalf("summary: %q", s)
	}
}
