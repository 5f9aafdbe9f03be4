package scenario

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"cdk8s-agent-play/e2e/internal/audit"
	"cdk8s-agent-play/e2e/internal/coderun"
	"cdk8s-agent-play/e2e/internal/eventbus"
	"cdk8s-agent-play/e2e/internal/fakegithub"
	"cdk8s-agent-play/e2e/internal/faults"
	"cdk8s-agent-play/e2e/internal/kube"
	"cdk8s-agent-play/e2e/internal/platformkeys"
	"cdk8s-agent-play/e2e/node"
)

// Env is what a scenario runs against.
type Env struct {
	Client    *kube.Client
	Node      *node.Node
	Stub      *coderun.Stub
	Namespace string
	// RepoDir is the repository (its build/cli.cjs is agent-play).
	RepoDir string
	// Kubeconfig is a kubeconfig of the API server, for agent-play's own cluster commands (resume, status).
	Kubeconfig string
	// Config is the agent-play config the platform was synthesized from ("": the embedded default, as
	// dist-manifests/); in a parallel slot, the one naming the slot's namespace.
	Config string
	Log    io.Writer
	// Quiet is how long nothing may change, once the cluster is at rest, for a step to count as settled.
	Quiet time.Duration
	// StepLimit bounds the wait for a step to settle.
	StepLimit time.Duration
	// Faults refuses Sensor triggers on request (triggerFailures).
	Faults *faults.Injector
	// Hold, when set, keeps some pods of the plays from starting until a step has settled.
	Hold *Hold
	// Bus tells when the Sensors have handled every event (nil: the quiet window alone).
	Bus *eventbus.Monitor
	// Agents are the fake CLIs of the direct agents in the namespace (nil: none run there).
	Agents *fakegithub.Agents
	// Audit reads the API server's audit log from the scenario's start, and ControllerLogs is a glob of the
	// workflow controller's logs: both only explain a failure (nil, "": not read).
	Audit          *audit.Reader
	ControllerLogs string
}

// Hold keeps the pods whose Argo node name (annotation workflows.argoproj.io/node-name) matches NodeName
// from starting, from the scenario's start until step Until has been done and has settled; then they
// start and the harness waits for the cluster to settle again. It makes an event come while a play's pod
// has not run yet, which a real node makes happen now and then (a slow image pull, a busy node).
type Hold struct {
	NodeName string `json:"nodeName"`
	Until    int    `json:"until"`
}

// Runner runs one scenario.
type Runner struct {
	env   Env
	sc    *Scenario
	Notes []string

	releasesSeen []string
	clock        realClock
	// predecessorPods are the pods seen beside a successor Workflow of the same name.
	predecessorPods map[string]bool
	// reapplied is set once a step applied the WorkflowTemplates again; revisionPods are the pods of
	// Workflows seen since, by name.
	reapplied    *reapply
	revisionPods map[string]podOfWorkflow
	// agentPods are the direct agents' pods seen, by uid; directProblems what their containers held that
	// they must not (direct.go).
	agentPods      map[string]*agentPod
	directProblems []string
	// durables are the Sensors' durable consumers (sensorDurables), read once.
	durables map[string]string
	// gates follows the plays' gates across their release (item 8 of issue 22).
	gates gateNodes
	// watched is the namespace as its watches report it (settle), from the first settle to the end of Run.
	watched *watched
	// projectWorkflows are the project Workflows the scenario submitted, by project name.
	projectWorkflows map[string]string
	// registry is the platform's repository registry, read once (registry.go).
	registry []registryEntry
}

// NewRunner makes a runner.
func NewRunner(env Env, sc *Scenario) *Runner { return &Runner{env: env, sc: sc} }

func (r *Runner) logf(format string, args ...any) {
	fmt.Fprintf(r.env.Log, "%s [%s] "+format+"\n", append([]any{time.Now().Format("15:04:05"), r.sc.Name}, args...)...)
}

func (r *Runner) note(format string, args ...any) {
	r.Notes = append(r.Notes, fmt.Sprintf(format, args...))
	r.logf(format, args...)
}

// Run creates the scenario's plays, runs its steps (each followed by a wait until the cluster is
// quiet) and returns the outcome.
func (r *Runner) Run(ctx context.Context) (*Outcome, error) {
	r.clock.begin(time.Now())
	defer func() {
		if r.watched != nil {
			r.watched.stop()
		}
	}()
	if h := r.env.Hold; h != nil {
		if h.Until < 0 || h.Until >= len(r.sc.Steps) {
			return nil, fmt.Errorf("hold.until: the scenario has no step %d", h.Until)
		}
		match, err := regexp.Compile(h.NodeName)
		if err != nil {
			return nil, fmt.Errorf("hold.nodeName: %w", err)
		}
		r.env.Node.Hold(r.env.Namespace, func(p *corev1.Pod) bool { return match.MatchString(p.Annotations[kube.ArgoAnnotationNodeName]) })
		defer r.env.Node.Release(r.env.Namespace)
	}
	for _, p := range r.sc.Plays {
		if _, err := r.createPlay(ctx, p.Repository, p.Task, p.Stage, p.Parameters); err != nil {
			return nil, err
		}
	}
	for _, p := range r.sc.Projects {
		if err := r.createProject(ctx, p.Name); err != nil {
			return nil, err
		}
	}
	if err := r.settle(ctx, "the plays of the scenario", r.env.Quiet); err != nil {
		return nil, err
	}
	for i, st := range r.sc.Steps {
		r.logf("%s", st.Describe(i))
		r.clock.begin(time.Now())
		if err := r.step(ctx, i, st); err != nil {
			return nil, fmt.Errorf("%s: %w", st.Describe(i), err)
		}
		// A Sensor retries a refused trigger after 5 s, 10 s, ... (its retryStrategy) before it acknowledges
		// the event: the event bus shows it being handled until then (settle).
		err := r.settle(ctx, st.Describe(i), r.env.Quiet)
		if st.TriggerFailures > 0 && r.env.Faults != nil {
			r.note("step %d: %d trigger attempt(s) refused as triggerFailures %d asks", i, r.env.Faults.Refused, st.TriggerFailures)
			r.env.Faults.Disarm()
		}
		if err != nil {
			return nil, err
		}
		if h := r.env.Hold; h != nil && h.Until == i {
			r.logf("the held pods start")
			r.env.Node.Release(r.env.Namespace)
			if err := r.settle(ctx, "the held pods", r.env.Quiet); err != nil {
				return nil, err
			}
		}
		if err := r.recordReleases(ctx); err != nil {
			return nil, err
		}
	}
	return r.outcome(ctx)
}

func (r *Runner) step(ctx context.Context, i int, st Step) error {
	switch {
	case st.Github != "":
		delivery := st.Delivery
		if delivery == "" {
			delivery = fmt.Sprintf("step-%d", i)
		}
		if st.TriggerFailures > 0 {
			users, err := r.sensorUsers(ctx)
			if err != nil {
				return err
			}
			if r.env.Faults == nil {
				return fmt.Errorf("triggerFailures needs the fault injector")
			}
			r.env.Faults.Arm(st.TriggerFailures, users)
		}
		return r.deliver(ctx, st.Github, filepath.Join(r.sc.Dir, st.Payload), delivery)
	case st.AgentDone != nil:
		return r.finishAgent(ctx, *st.AgentDone, "Succeeded")
	case st.AgentFailed != nil:
		if st.AgentFailed.Reason == "evicted" {
			return r.evictAgent(ctx, *st.AgentFailed)
		}
		return r.finishAgent(ctx, *st.AgentFailed, "Failed")
	case st.DeletePlay != nil:
		return r.deletePlay(ctx, *st.DeletePlay)
	case st.ResumeFromState != nil:
		return r.resumeFromState(ctx, *st.ResumeFromState)
	case st.ReapplyTemplates != nil:
		return r.reapplyTemplates(ctx, i)
	case st.EvictChunkWatcher != nil:
		return r.evictChunkWatcher(ctx, *st.EvictChunkWatcher)
	case st.Restart != nil:
		if err := r.deletePlay(ctx, *st.Restart); err != nil && !strings.Contains(err.Error(), "no live play") {
			return err
		}
		params := map[string]string{}
		for _, p := range r.sc.Plays {
			if p.Repository == st.Restart.Repository && p.Task == st.Restart.Task {
				params = p.Parameters
			}
		}
		_, err := r.createPlay(ctx, st.Restart.Repository, st.Restart.Task, "", params)
		return err
	}
	return fmt.Errorf("unknown step")
}

// playTemplate is the play WorkflowTemplate that runs a repository: its entry in the repository registry
// names it.
func (r *Runner) playTemplate(ctx context.Context, repo string) (string, error) {
	entry, err := r.registryEntryOf(ctx, repo)
	if err != nil {
		return "", err
	}
	if entry.PlayTemplate == "" {
		return "", fmt.Errorf("the registry entry of %s names no play WorkflowTemplate: the platform was synthesized by an older agent-play; synthesize it again", repo)
	}
	return entry.PlayTemplate, nil
}

// createPlay submits a play as `argo submit --from workflowtemplate/play -p repository=R -p task-id=N` does.
func (r *Runner) createPlay(ctx context.Context, repo string, task int, stage string, params map[string]string) (string, error) {
	tmpl, err := r.playTemplate(ctx, repo)
	if err != nil {
		return "", err
	}
	ps := []any{
		map[string]any{"name": platformkeys.PlayParameterRepository, "value": repo},
		map[string]any{"name": platformkeys.PlayParameterTaskID, "value": strconv.Itoa(task)},
	}
	if stage != "" {
		ps = append(ps, map[string]any{"name": platformkeys.PlayParameterStartStage, "value": stage})
	}
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ps = append(ps, map[string]any{"name": k, "value": params[k]})
	}
	wf := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "argoproj.io/v1alpha1", "kind": "Workflow",
		"metadata": map[string]any{"generateName": tmpl + "-", "namespace": r.env.Namespace},
		"spec":     map[string]any{"workflowTemplateRef": map[string]any{"name": tmpl}, "arguments": map[string]any{"parameters": ps}},
	}}
	out, err := r.env.Client.Dynamic.Resource(kube.WorkflowResource).Namespace(r.env.Namespace).Create(ctx, wf, metav1.CreateOptions{})
	if err != nil {
		return "", fmt.Errorf("submit play of %s task %d: %w", repo, task, err)
	}
	r.logf("submitted play %s (task %d, stage %q)", out.GetName(), task, stage)
	return out.GetName(), nil
}

// plays lists the task's plays, newest first.
func (r *Runner) plays(ctx context.Context, repo string, task int) ([]unstructured.Unstructured, error) {
	// The resumer's selector (constructs/model/play-workflow.ts, playSelectorLabels).
	entry, err := r.registryEntryOf(ctx, repo)
	if err != nil {
		return nil, err
	}
	sel := fmt.Sprintf("%s=%s,%s=%d,%s=%s", platformkeys.PlayLabelWorkflowType, platformkeys.WorkflowTypePlay, platformkeys.PlayLabelTaskID, task, platformkeys.PlayLabelRepository, entry.Label)
	list, err := r.env.Client.Dynamic.Resource(kube.WorkflowResource).Namespace(r.env.Namespace).List(ctx, metav1.ListOptions{LabelSelector: sel})
	if err != nil {
		return nil, err
	}
	items := list.Items
	sort.SliceStable(items, func(i, j int) bool {
		b := items[j].GetCreationTimestamp()
		return b.Before(ptrTime(items[i].GetCreationTimestamp()))
	})
	return items, nil
}

func ptrTime(t metav1.Time) *metav1.Time { return &t }

// livePlay is the task's play that has not completed and is not being deleted.
func (r *Runner) livePlay(ctx context.Context, repo string, task int) (*unstructured.Unstructured, error) {
	items, err := r.plays(ctx, repo, task)
	if err != nil {
		return nil, err
	}
	for i := range items {
		w := &items[i]
		if w.GetDeletionTimestamp() == nil && w.GetLabels()[kube.ArgoLabelCompleted] != "true" {
			return w, nil
		}
	}
	seen := make([]string, 0, len(items))
	for _, w := range items {
		phase, _, _ := unstructured.NestedString(w.Object, "status", "phase")
		seen = append(seen, fmt.Sprintf("%s (%s, completed=%q, deleting=%v)", w.GetName(), phase, w.GetLabels()[kube.ArgoLabelCompleted], w.GetDeletionTimestamp() != nil))
	}
	others, explained := r.otherWorkflows(ctx, items)
	return nil, fmt.Errorf("no live play of %s task %d (plays labelled so: %v%s)%s", repo, task, seen, others, explained)
}

// otherWorkflows describes the namespace's Workflows that the play selector did not match: their labels of
// task and repository, phase, message and first failed step. A play the controller ended before it applied
// its template's workflowMetadata has no labels at all; one whose first step (resolve-repository) failed has
// no repository label. Either would otherwise leave "no live play" unexplained.
//
// The second result explains, on lines of their own, how the labels of the Workflows that may be plays
// came to be (diagnose).
func (r *Runner) otherWorkflows(ctx context.Context, matched []unstructured.Unstructured) (string, string) {
	list, err := r.env.Client.Dynamic.Resource(kube.WorkflowResource).Namespace(r.env.Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return "; listing the namespace's Workflows failed: " + err.Error(), ""
	}
	seen := map[string]bool{}
	for _, w := range matched {
		seen[w.GetName()] = true
	}
	var out []string
	for _, w := range list.Items {
		if seen[w.GetName()] {
			continue
		}
		out = append(out, describeWorkflow(&w))
	}
	if len(out) == 0 {
		return "", ""
	}
	sort.Strings(out)
	var explained []string
	for _, w := range unlabelledPlays(list.Items, seen) {
		explained = append(explained, r.diagnose(w)...)
	}
	text := "; the namespace's other Workflows: " + strings.Join(out, ", ")
	if len(explained) == 0 {
		return text, ""
	}
	return text, "\n  how their labels came to be:\n" + strings.Join(explained, "\n")
}

// describeWorkflow is a Workflow's name, selected labels, phase, message and first failed step, for an error.
func describeWorkflow(w *unstructured.Unstructured) string {
	phase, _, _ := unstructured.NestedString(w.Object, "status", "phase")
	message, _, _ := unstructured.NestedString(w.Object, "status", "message")
	l := w.GetLabels()
	text := fmt.Sprintf("%s (%s=%q %s=%q %s=%q; %s %q", w.GetName(), platformkeys.PlayLabelWorkflowType, l[platformkeys.PlayLabelWorkflowType],
		platformkeys.PlayLabelTaskID, l[platformkeys.PlayLabelTaskID], platformkeys.PlayLabelRepository, l[platformkeys.PlayLabelRepository], phase, message)
	if step := firstFailedStep(w); step != "" {
		text += "; " + step
	}
	return text + ")"
}

// firstFailedStep names the Workflow's failed or errored pod step that started first, with its message.
func firstFailedStep(w *unstructured.Unstructured) string {
	var found map[string]any
	for _, v := range nodesOf(w) {
		n, _ := v.(map[string]any)
		if n["type"] != "Pod" || (n["phase"] != "Failed" && n["phase"] != "Error") {
			continue
		}
		if found == nil || fmt.Sprint(n["startedAt"]) < fmt.Sprint(found["startedAt"]) {
			found = n
		}
	}
	if found == nil {
		return ""
	}
	return fmt.Sprintf("step %v %v: %q", found["displayName"], found["phase"], found["message"])
}

func (r *Runner) finishAgent(ctx context.Context, t TaskRef, phase string) error {
	play, err := r.livePlay(ctx, t.Repository, t.Task)
	if err != nil {
		return err
	}
	sel := fmt.Sprintf("%s=%d,%s=%s", platformkeys.CodeRunLabelTaskID, t.Task, platformkeys.CodeRunLabelWorkflowUID, play.GetUID())
	var names []string
	what := "CodeRun"
	err = kube.Poll(ctx, 90*time.Second, func() (bool, error) {
		var ferr error
		names, ferr = r.env.Stub.Finish(ctx, sel, phase, "the scenario says so")
		if ferr != nil && r.env.Agents != nil {
			// A direct agent: its fake CLI ends with the exit code (docs/executors.md: it decides the attempt).
			exit := 0
			if phase != "Succeeded" {
				exit = 1
			}
			what = "agent CLI of pod"
			names, ferr = r.env.Agents.Finish(play.GetName(), exit)
		}
		return ferr == nil, nil
	})
	if err != nil {
		return fmt.Errorf("no live CodeRun or waiting agent CLI of play %s to end %s", play.GetName(), phase)
	}
	r.logf("%s %s -> %s", what, strings.Join(names, ", "), phase)
	return nil
}

// evictAgent evicts the play's running agent pod (the pod waiting on the CodeRun) as a kubelet under
// node pressure does; the CodeRun keeps working.
func (r *Runner) evictAgent(ctx context.Context, t TaskRef) error {
	play, err := r.livePlay(ctx, t.Repository, t.Task)
	if err != nil {
		return err
	}
	pods, err := r.env.Client.Kube.CoreV1().Pods(r.env.Namespace).List(ctx, metav1.ListOptions{LabelSelector: kube.ArgoLabelWorkflow + "=" + play.GetName()})
	if err != nil {
		return err
	}
	for _, p := range pods.Items {
		if p.Status.Phase == "Running" && p.DeletionTimestamp == nil {
			r.logf("evicting pod %s (%s)", p.Name, p.Annotations[kube.ArgoAnnotationNodeName])
			return r.env.Node.Evict(p.Namespace, p.Name, "The node was low on resource: memory.")
		}
	}
	return fmt.Errorf("play %s has no running pod to evict", play.GetName())
}

// deletePlay deletes the live play as `kubectl delete workflow` does, and waits until it is gone.
func (r *Runner) deletePlay(ctx context.Context, t TaskRef) error {
	play, err := r.livePlay(ctx, t.Repository, t.Task)
	if err != nil {
		return err
	}
	ri := r.env.Client.Dynamic.Resource(kube.WorkflowResource).Namespace(r.env.Namespace)
	bg := metav1.DeletePropagationBackground
	if err := ri.Delete(ctx, play.GetName(), metav1.DeleteOptions{PropagationPolicy: &bg}); err != nil {
		return err
	}
	r.logf("deleted play %s", play.GetName())
	return kube.Poll(ctx, 2*time.Minute, func() (bool, error) {
		_, err := ri.Get(ctx, play.GetName(), metav1.GetOptions{})
		return apierrors.IsNotFound(err), nil
	})
}

// sensorUsers gives the user names of the namespace's Sensors (their service accounts).
func (r *Runner) sensorUsers(ctx context.Context) ([]string, error) {
	list, err := r.env.Client.Dynamic.Resource(kube.SensorResource).Namespace(r.env.Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	var users []string
	for _, s := range list.Items {
		sa, _, _ := unstructured.NestedString(s.Object, "spec", "template", "serviceAccountName")
		if sa == "" {
			sa = "default"
		}
		users = append(users, "system:serviceaccount:"+r.env.Namespace+":"+sa)
	}
	return users, nil
}
