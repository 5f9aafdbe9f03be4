package scenario

// Projects (docs/projects.md) on the real controllers: a scenario's `projects` are submitted as `argo submit
// --from workflowtemplate/project-{name}` does, the step evictChunkWatcher evicts the pod of the project's
// wait-chunk step watching a chunk, and the outcome reads back what the project did: its phase, and per chunk
// the chunk Workflow's phase, its tasks completed (run-task nodes Succeeded) and the pods that watched it
// (the wait-chunk step's Pod nodes in the project Workflow, one per attempt).

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"cdk8s-agent-play/e2e/internal/kube"
)

// ProjectRef names a project of the platform's configuration.
type ProjectRef struct {
	Name string `json:"name"`
}

// ChunkRef names a chunk (from 1) of a project.
type ChunkRef struct {
	Project string `json:"project"`
	Chunk   int    `json:"chunk"`
}

// ChunkOutcome is one chunk of a project as the comparison sees it.
type ChunkOutcome struct {
	Chunk          string `json:"chunk"`
	Phase          string `json:"phase"`
	Tasks          int    `json:"tasks"`
	TasksCompleted int    `json:"tasksCompleted"`
	WatcherPods    int    `json:"watcherPods"`
}

// ProjectOutcome is a project as the comparison sees it.
type ProjectOutcome struct {
	Name            string         `json:"name"`
	Phase           string         `json:"phase"`
	ChunksCompleted int            `json:"chunksCompleted"`
	TasksCompleted  int            `json:"tasksCompleted"`
	Chunks          []ChunkOutcome `json:"chunks"`
}

// projectTemplate is the WorkflowTemplate a project's Workflow is submitted from.
func projectTemplate(name string) string { return "project-" + name }

// createProject submits a project as `argo submit --from workflowtemplate/project-{name}` does.
func (r *Runner) createProject(ctx context.Context, name string) error {
	wf := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "argoproj.io/v1alpha1", "kind": "Workflow",
		"metadata": map[string]any{"generateName": projectTemplate(name) + "-", "namespace": r.env.Namespace},
		"spec":     map[string]any{"workflowTemplateRef": map[string]any{"name": projectTemplate(name)}},
	}}
	out, err := r.env.Client.Dynamic.Resource(kube.WorkflowResource).Namespace(r.env.Namespace).Create(ctx, wf, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("submit project %s: %w", name, err)
	}
	if r.projectWorkflows == nil {
		r.projectWorkflows = map[string]string{}
	}
	r.projectWorkflows[name] = out.GetName()
	r.logf("submitted project %s as %s", name, out.GetName())
	return nil
}

// watcherNode matches the node name of a wait-chunk attempt in the project Workflow:
// `{workflow}[i].chunk-N[1].wait(k)`, naming the chunk.
var watcherNode = regexp.MustCompile(`\.(chunk-\d+)\[1\]\.wait(\(\d+\))?$`)

// evictChunkWatcher evicts the running pod of the project's wait-chunk step watching chunk N through the
// Eviction API (as `kubectl drain` does): the API server deletes it, the node stops it.
func (r *Runner) evictChunkWatcher(ctx context.Context, c ChunkRef) error {
	wf := r.projectWorkflows[c.Project]
	if wf == "" {
		return fmt.Errorf("the scenario submitted no project %s: list it under the scenario's projects", c.Project)
	}
	pods, err := r.env.Client.Kube.CoreV1().Pods(r.env.Namespace).List(ctx, metav1.ListOptions{LabelSelector: kube.ArgoLabelWorkflow + "=" + wf})
	if err != nil {
		return err
	}
	want := fmt.Sprintf("chunk-%d", c.Chunk)
	for _, p := range pods.Items {
		m := watcherNode.FindStringSubmatch(p.Annotations[kube.ArgoAnnotationNodeName])
		if m == nil || m[1] != want || p.Status.Phase != corev1.PodRunning || p.DeletionTimestamp != nil {
			continue
		}
		r.logf("evicting pod %s (%s)", p.Name, p.Annotations[kube.ArgoAnnotationNodeName])
		return r.env.Client.Kube.PolicyV1().Evictions(p.Namespace).Evict(ctx, &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: p.Name, Namespace: p.Namespace}})
	}
	return fmt.Errorf("project %s (%s) has no running pod watching %s", c.Project, wf, want)
}

// projectOutcomes reads each submitted project back from the cluster.
func (r *Runner) projectOutcomes(ctx context.Context) ([]ProjectOutcome, error) {
	var out []ProjectOutcome
	for _, name := range slices.Sorted(maps.Keys(r.projectWorkflows)) {
		o, err := r.projectOutcome(ctx, name, r.projectWorkflows[name])
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

func (r *Runner) projectOutcome(ctx context.Context, name, wfName string) (ProjectOutcome, error) {
	wfs := r.env.Client.Dynamic.Resource(kube.WorkflowResource).Namespace(r.env.Namespace)
	project, err := wfs.Get(ctx, wfName, metav1.GetOptions{})
	if err != nil {
		return ProjectOutcome{}, err
	}
	o := ProjectOutcome{Name: name}
	o.Phase, _, _ = unstructured.NestedString(project.Object, "status", "phase")
	chunks, err := r.projectChunks(ctx, projectTemplate(name))
	if err != nil {
		return o, err
	}
	pnodes, err := workflowNodes(project)
	if err != nil {
		return o, err
	}
	watchers := map[string]int{}
	for _, v := range pnodes {
		n, _ := v.(map[string]any)
		if n["type"] != "Pod" || n["templateName"] != "wait-chunk" {
			continue
		}
		if m := watcherNode.FindStringSubmatch(fmt.Sprint(n["name"])); m != nil {
			watchers[m[1]]++
		}
	}
	list, err := wfs.List(ctx, metav1.ListOptions{})
	if err != nil {
		return o, err
	}
	for _, c := range chunks {
		co := ChunkOutcome{Chunk: c.name, Phase: "Pending", Tasks: c.tasks, WatcherPods: watchers[c.name]}
		for i := range list.Items {
			w := &list.Items[i]
			entry, _, _ := unstructured.NestedString(w.Object, "spec", "entrypoint")
			if entry != c.name || !ownedBy(w.GetOwnerReferences(), string(project.GetUID())) {
				continue
			}
			co.Phase, _, _ = unstructured.NestedString(w.Object, "status", "phase")
			nodes, err := workflowNodes(w)
			if err != nil {
				return o, err
			}
			for _, v := range nodes {
				n, _ := v.(map[string]any)
				if n["templateName"] == "run-task" && n["phase"] == "Succeeded" {
					co.TasksCompleted++
				}
			}
		}
		if co.Phase == "Succeeded" {
			o.ChunksCompleted++
		}
		o.TasksCompleted += co.TasksCompleted
		o.Chunks = append(o.Chunks, co)
	}
	return o, nil
}

type chunkDef struct {
	name  string
	tasks int
}

// projectChunks lists a project's chunks in order, from its WorkflowTemplate's main steps, each with the
// number of tasks of its DAG (in whichever WorkflowTemplate of the project holds it).
func (r *Runner) projectChunks(ctx context.Context, template string) ([]chunkDef, error) {
	wts := r.env.Client.Dynamic.Resource(kube.TemplateResource).Namespace(r.env.Namespace)
	main, err := wts.Get(ctx, template, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	entry, _, _ := unstructured.NestedString(main.Object, "spec", "entrypoint")
	var out []chunkDef
	for _, step := range templateSteps(main, entry) {
		holder, chunk := "", ""
		params, _, _ := unstructured.NestedSlice(step, "arguments", "parameters")
		for _, p := range params {
			pm, _ := p.(map[string]any)
			switch pm["name"] {
			case "workflow-template":
				holder = fmt.Sprint(pm["value"])
			case "chunk":
				chunk = fmt.Sprint(pm["value"])
			}
		}
		owner := main
		if holder != template {
			if owner, err = wts.Get(ctx, holder, metav1.GetOptions{}); err != nil {
				return nil, err
			}
		}
		tasks := 0
		if t := findTemplate(owner, chunk); t != nil {
			ts, _, _ := unstructured.NestedSlice(t, "dag", "tasks")
			tasks = len(ts)
		}
		out = append(out, chunkDef{name: chunk, tasks: tasks})
	}
	return out, nil
}

func findTemplate(wt *unstructured.Unstructured, name string) map[string]any {
	ts, _, _ := unstructured.NestedSlice(wt.Object, "spec", "templates")
	for _, t := range ts {
		if tm, _ := t.(map[string]any); tm["name"] == name {
			return tm
		}
	}
	return nil
}

// templateSteps flattens a steps template's groups.
func templateSteps(wt *unstructured.Unstructured, name string) []map[string]any {
	t := findTemplate(wt, name)
	var out []map[string]any
	groups, _ := t["steps"].([]any)
	for _, g := range groups {
		steps, _ := g.([]any)
		for _, s := range steps {
			if sm, ok := s.(map[string]any); ok {
				out = append(out, sm)
			}
		}
	}
	return out
}

func ownedBy(refs []metav1.OwnerReference, uid string) bool {
	for _, o := range refs {
		if o.Kind == "Workflow" && string(o.UID) == uid {
			return true
		}
	}
	return false
}

// workflowNodes gives a Workflow's nodes, also when the controller compressed them (status.compressedNodes:
// base64 of the gzipped JSON, for a status over its size limit; workflow/packer/packer.go).
func workflowNodes(w *unstructured.Unstructured) (map[string]any, error) {
	nodes, _, _ := unstructured.NestedMap(w.Object, "status", "nodes")
	compressed, _, _ := unstructured.NestedString(w.Object, "status", "compressedNodes")
	if compressed == "" {
		return nodes, nil
	}
	raw, err := base64.StdEncoding.DecodeString(compressed)
	if err != nil {
		return nil, fmt.Errorf("workflow %s: compressedNodes: %w", w.GetName(), err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("workflow %s: compressedNodes: %w", w.GetName(), err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("workflow %s: compressedNodes: %w", w.GetName(), err)
	}
	out := map[string]any{}
	return out, json.Unmarshal(b, &out)
}

// waitsOnTask tells whether a pod runs a project's wait-play step (`node runtime.cjs project-wait-play`),
// which polls its task's progress record: it waits on the outside while the record is not final.
func waitsOnTask(p *corev1.Pod) (repository, task string, ok bool) {
	for _, c := range p.Spec.Containers {
		if c.Name != "main" || !strings.Contains(strings.Join(c.Command, " "), "project-wait-play") {
			continue
		}
		for _, e := range c.Env {
			switch e.Name {
			case "REPOSITORY":
				repository = e.Value
			case "TASK_ID":
				task = e.Value
			}
		}
		return repository, task, true
	}
	return "", "", false
}

// taskRecords gives each task's progress record status by repository (lower case) and task, from the
// progress ConfigMaps.
func taskRecords(cms []corev1.ConfigMap) map[string]string {
	out := map[string]string{}
	for _, rec := range parseProgressRecords(cms) {
		out[taskKey(rec.Repository, rec.Task)] = rec.Status
	}
	return out
}

// projectPodsBusy tells why the pods of projects are not at rest: a wait-play pod whose task's record is
// final (completed or failed: it ends or decides at its next poll), and a chunk watcher (a resource get of a
// Workflow) whose Workflow has completed (it ends at its next look).
func projectPodsBusy(pods []corev1.Pod, cms []corev1.ConfigMap, wfs []unstructured.Unstructured) []string {
	records := taskRecords(cms)
	completed := map[string]bool{}
	for i := range wfs {
		if wfs[i].GetLabels()[kube.ArgoLabelCompleted] == "true" {
			completed[wfs[i].GetName()] = true
		}
	}
	var busy []string
	for i := range pods {
		p := &pods[i]
		if p.Status.Phase != corev1.PodRunning || p.DeletionTimestamp != nil {
			continue
		}
		if repo, task, ok := waitsOnTask(p); ok {
			if s := records[strings.ToLower(repo)+"/"+task]; s == "completed" || s == "failed" {
				busy = append(busy, fmt.Sprintf("pod %s waits on task %s, whose record is %s: its next poll ends or decides it", p.Name, task, s))
			}
			continue
		}
		if name, ok := workflowWaitedOn(p); ok && completed[name] {
			busy = append(busy, fmt.Sprintf("pod %s watches Workflow %s, which has completed: it ends at its next look", p.Name, name))
		}
	}
	return busy
}

// workflowWaitedOn gives the Workflow a resource template's pod waits on (a `get` with a condition).
func workflowWaitedOn(p *corev1.Pod) (string, bool) { return waitedOn(p, "Workflow") }

// projectSummaries is the table's form of the projects: phase, chunks and tasks completed, watcher pods
// per chunk.
func projectSummaries(projects []ProjectOutcome) []string {
	var parts []string
	for _, p := range projects {
		pods := make([]string, 0, len(p.Chunks))
		for _, c := range p.Chunks {
			pods = append(pods, fmt.Sprint(c.WatcherPods))
		}
		parts = append(parts, fmt.Sprintf("project %s %s, %d of %d chunks and %d tasks completed, watcher pods %s",
			p.Name, p.Phase, p.ChunksCompleted, len(p.Chunks), p.TasksCompleted, strings.Join(pods, "+")))
	}
	return parts
}

// diffProjects lists where two outcomes' projects differ: phase, chunks and tasks completed, and each
// chunk's phase, tasks, tasks completed and watcher pods.
func diffProjects(real, sim []ProjectOutcome) []string {
	var d []string
	simByName := map[string]ProjectOutcome{}
	for _, p := range sim {
		simByName[p.Name] = p
	}
	if len(real) != len(sim) {
		d = append(d, fmt.Sprintf("projects: real %d, simulator %d", len(real), len(sim)))
	}
	for _, p := range real {
		s, ok := simByName[p.Name]
		if !ok {
			d = append(d, fmt.Sprintf("project %s: not in the simulator", p.Name))
			continue
		}
		a, _ := json.Marshal(p)
		b, _ := json.Marshal(s)
		if !bytes.Equal(a, b) {
			d = append(d, fmt.Sprintf("project %s: real %s, simulator %s", p.Name, a, b))
		}
	}
	return d
}
