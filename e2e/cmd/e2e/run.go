package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"cdk8s-agent-play/e2e/internal/audit"
	"cdk8s-agent-play/e2e/internal/cluster"
	"cdk8s-agent-play/e2e/internal/coderun"
	"cdk8s-agent-play/e2e/internal/faults"
	"cdk8s-agent-play/e2e/internal/kube"
	"cdk8s-agent-play/e2e/internal/platform"
	"cdk8s-agent-play/e2e/internal/platformkeys"
	"cdk8s-agent-play/e2e/internal/scenario"
	"cdk8s-agent-play/e2e/internal/upstream"
)

// entry is one line of e2e/scenarios.yaml.
type entry struct {
	File   string `json:"file"`
	Name   string `json:"name,omitempty"`
	Config string `json:"config,omitempty"`
	Expect string `json:"expect,omitempty"`
	// Hold keeps some pods from starting until a step has settled (scenario.Hold).
	Hold *scenario.Hold `json:"hold,omitempty"`
	// Controller is the workflow controller's configuration the scenario runs under (default: upstream's).
	Controller *upstream.ControllerConfig `json:"controller,omitempty"`
	// Plays is what every play of the scenario must come to on the real controllers (a known finding's
	// evidence, beside `expect: disagree`).
	Plays *playExpectation `json:"plays,omitempty"`
	// StepLimit bounds the wait for each step to settle (a Go duration, e.g. 40m; default 8m): a project's
	// step runs many plays.
	StepLimit string `json:"stepLimit,omitempty"`
	// OnDemand keeps the entry out of a run that names no scenario (CI's): it runs when named.
	OnDemand bool `json:"onDemand,omitempty"`
}

type result struct {
	Name      string            `json:"name"`
	Real      *scenario.Outcome `json:"real,omitempty"`
	Simulator *scenario.Outcome `json:"simulator,omitempty"`
	Diff      []string          `json:"diff,omitempty"`
	Error     string            `json:"error,omitempty"`
	Notes     []string          `json:"notes,omitempty"`
	Refused   []string          `json:"refused,omitempty"`
	Expect    string            `json:"expect,omitempty"`
	Passed    bool              `json:"passed"`
	Seconds   int               `json:"seconds"`
	// Controller names the workflow controller's configuration it ran under.
	Controller string `json:"controller"`
	// PodCPUSeconds is the processor time of its pods' containers (process node, cpu.go).
	PodCPUSeconds float64 `json:"podCpuSeconds"`
}

type runOptions struct {
	repoDir, e2eDir, binDir, runDir, self string
	only                                  []string
	log                                   io.Writer
	// parallel is how many scenarios run at once, each in a namespace of its own (a slot).
	parallel int
	// controller, when set, is the workflow controller's configuration of every scenario that gives none.
	controller upstream.ControllerConfig
}

func loadEntries(file string) ([]entry, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Scenarios []entry `json:"scenarios"`
	}
	if err := yaml.UnmarshalStrict(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	names := map[string]bool{}
	for i := range doc.Scenarios {
		e := &doc.Scenarios[i]
		if e.Name == "" {
			e.Name = filepath.Base(filepath.Dir(e.File))
		}
		if names[e.Name] {
			return nil, fmt.Errorf("%s: scenario %s is listed twice (give one a name)", file, e.Name)
		}
		names[e.Name] = true
		if e.Controller != nil {
			if err := e.Controller.Validate(); err != nil {
				return nil, fmt.Errorf("%s: scenario %s: %w", file, e.Name, err)
			}
		}
	}
	return doc.Scenarios, nil
}

// selected tells whether a run of the named scenarios (all when none is named) runs the entry: an
// on-demand entry only when it is named.
func selected(e entry, only []string) bool {
	if len(only) == 0 {
		return !e.OnDemand
	}
	for _, o := range only {
		if o == e.Name {
			return true
		}
	}
	return false
}

// runScenarios brings the cluster up, runs each scenario on it and by the simulator, prints the table
// and fails when a scenario fails or its comparison is not what scenarios.yaml expects.
func runScenarios(ctx context.Context, o runOptions) error {
	entries, err := loadEntries(filepath.Join(o.e2eDir, "scenarios.yaml"))
	if err != nil {
		return err
	}
	var chosen []entry
	for _, e := range entries {
		if selected(e, o.only) {
			chosen = append(chosen, e)
		}
	}
	slots, err := planSlots(o, min(max(o.parallel, 1), max(len(chosen), 1)))
	if err != nil {
		return err
	}
	groups := groupByController(chosen, o.controller)
	t0 := time.Now()
	c, err := cluster.Start(ctx, cluster.Options{E2EDir: o.e2eDir, BinDir: o.binDir, RunDir: o.runDir, Self: o.self, Log: o.log, Buses: len(slots), Controller: groups[0].config})
	if err != nil {
		return err
	}
	defer c.Stop()
	fmt.Fprintf(o.log, "cluster up in %s\n", time.Since(t0).Round(time.Second))
	for i := range slots {
		slots[i].bus = c.Buses[i]
	}
	results := runGroups(ctx, c, o, slots, chosen, groups)
	wall := time.Since(t0)
	c.Stop()
	fmt.Fprintf(o.log, "%d scenario(s) in %s, %d at once; %s\n", len(results), wall.Round(time.Second), len(slots), cpuSummary(wall, c.CPU()))
	b, _ := json.MarshalIndent(results, "", "  ")
	_ = os.WriteFile(filepath.Join(o.runDir, "results.json"), b, 0o644)
	printTable(os.Stdout, results)
	failed := 0
	for _, r := range results {
		if !r.Passed {
			failed++
		}
	}
	fmt.Printf("e2e: %d passed, %d failed\n", len(results)-failed, failed)
	fmt.Printf("%d passed, %d failed\n", len(results)-failed, failed)
	if failed > 0 {
		return fmt.Errorf("%d scenario(s) failed; logs in %s", failed, filepath.Join(o.runDir, "logs"))
	}
	return nil
}

func runOne(ctx context.Context, c *cluster.Cluster, o runOptions, sl slot, e entry, cfg upstream.ControllerConfig) result {
	res := result{Name: e.Name, Expect: e.Expect, Controller: cfg.String()}
	fail := func(err error) result {
		res.Error = err.Error()
		return res
	}
	scenarioFile := filepath.Join(o.repoDir, e.File)
	sc, err := scenario.Load(scenarioFile)
	if err != nil {
		return fail(err)
	}
	sc.Name = e.Name
	config := ""
	if e.Config != "" {
		config = filepath.Join(o.repoDir, e.Config)
	}
	platformDir, platformConfig, err := sl.platform(o, e.Name, config)
	if err != nil {
		return fail(err)
	}
	sim, err := scenario.Simulate(ctx, o.repoDir, scenarioFile, config)
	if err != nil {
		return fail(err)
	}
	res.Simulator = sim
	stub, err := install(ctx, c, sl, platformDir, o.log)
	if err != nil {
		return fail(err)
	}
	agents, err := prepareDirect(ctx, c, stub.Namespace, platformDir)
	if err != nil {
		return fail(err)
	}
	stubCtx, stopStub := context.WithCancel(ctx)
	defer stopStub()
	go stub.Run(stubCtx)
	inj, err := faults.Start(ctx, c.Client.Kube, c.CP.PKI.NodeCert, c.CP.PKI.NodeKey, c.CP.PKI.CACert, stub.Namespace, sl.faultsAddr)
	if err != nil {
		return fail(fmt.Errorf("fault injector: %w", err))
	}
	defer inj.Close()
	env := scenario.Env{
		Client: c.Client, Node: c.Node, Stub: stub, Namespace: stub.Namespace, RepoDir: o.repoDir, Log: o.log,
		Kubeconfig: c.CP.AdminKubeconfig, Config: platformConfig,
		Quiet: quiet, StepLimit: 8 * time.Minute, Faults: inj, Hold: e.Hold, Bus: sl.bus.Monitor, Agents: agents,
	}
	if e.StepLimit != "" {
		if env.StepLimit, err = time.ParseDuration(e.StepLimit); err != nil {
			return fail(fmt.Errorf("stepLimit: %w (a Go duration, such as 40m)", err))
		}
	}
	auditLog := &audit.Reader{Path: c.CP.AuditLog}
	auditLog.Skip()
	env.Audit = auditLog
	env.ControllerLogs = filepath.Join(c.CP.LogDir, "pods", "argo_workflow-controller-*", "workflow-controller.log")
	runner := scenario.NewRunner(env, sc)
	real, err := runner.Run(ctx)
	res.Notes = runner.Notes
	// The API server writes its audit log in batches at most a second apart (--audit-log-batch-max-wait).
	time.Sleep(auditFlush)
	if refused, aerr := auditLog.Refusals(stub.Namespace); aerr == nil {
		res.Refused = refused
	}
	if err != nil {
		return fail(err)
	}
	res.Real = real
	if e.Plays != nil {
		if err := e.Plays.check(real); err != nil {
			return fail(err)
		}
	}
	res.Diff = scenario.Diff(real, sim)
	bad := len(res.Diff) > 0 || len(res.Refused) > 0
	switch {
	case e.Expect == "" && !bad:
		res.Passed = true
	case e.Expect != "" && bad:
		res.Passed = true
	case e.Expect != "":
		res.Error = "agrees with the simulator and nothing was refused now: take it off the known findings in e2e/scenarios.yaml"
	case len(res.Refused) > 0:
		res.Error = fmt.Sprintf("the API server refused %d request(s) of the platform (RBAC or PodSecurity)", len(res.Refused))
	default:
		res.Error = "differs from the simulator"
	}
	return res
}

// install applies a platform into a clean namespace: what earlier scenarios left (plays, CodeRuns,
// progress records) is deleted first; the platform's own objects are (re)applied.
func install(ctx context.Context, c *cluster.Cluster, sl slot, dir string, log io.Writer) (*coderun.Stub, error) {
	objs, err := kube.ReadObjects(dir)
	if err != nil {
		return nil, err
	}
	nss := platform.Namespaces(objs)
	if len(nss) != 1 {
		return nil, fmt.Errorf("%s: the harness runs a platform of one namespace; it names %v", dir, nss)
	}
	ns := nss[0]
	if ns != sl.namespace {
		return nil, fmt.Errorf("%s: the platform's namespace is %s, its slot's %s", dir, ns, sl.namespace)
	}
	if err := platform.Prepare(ctx, c.Client, ns, "nats://"+sl.bus.Address); err != nil {
		return nil, err
	}
	if err := clean(ctx, c.Client, ns); err != nil {
		return nil, err
	}
	if err := c.Client.Apply(ctx, objs, ""); err != nil {
		return nil, fmt.Errorf("apply the platform: %w", err)
	}
	// Argo Events makes a Deployment per EventSource and Sensor; they must run before deliveries.
	if err := waitEventDeployments(ctx, c, ns); err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "platform %s applied to %s\n", dir, ns)
	return &coderun.Stub{Dynamic: c.Client.Dynamic, Metadata: c.Client.Metadata, Namespace: ns}, nil
}

// waitEventDeployments waits until the Deployment of every EventSource and Sensor is available.
func waitEventDeployments(ctx context.Context, c *cluster.Cluster, ns string) error {
	return kube.Poll(ctx, 4*time.Minute, func() (bool, error) {
		want := 0
		for _, res := range []string{"eventsources", "sensors"} {
			gvr := kube.SourceResource
			if res == "sensors" {
				gvr = kube.SensorResource
			}
			list, err := c.Client.Dynamic.Resource(gvr).Namespace(ns).List(ctx, metav1.ListOptions{})
			if err != nil {
				return false, err
			}
			want += len(list.Items)
		}
		deps, err := c.Client.Kube.AppsV1().Deployments(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		ready := 0
		for _, d := range deps.Items {
			if d.Status.AvailableReplicas > 0 && d.Status.UpdatedReplicas == d.Status.Replicas && d.Status.ObservedGeneration == d.Generation {
				ready++
			}
		}
		// A platform without gates has no EventSource and no Sensor (the list is read after the apply).
		return ready >= want, nil
	})
}

// clean deletes what earlier scenarios left in the namespace: Workflows (their pods and CodeRuns go
// with them), remaining CodeRuns, and the runtime ConfigMaps (progress and release records).
func clean(ctx context.Context, cl *kube.Client, ns string) error {
	wf := cl.Dynamic.Resource(kube.WorkflowResource).Namespace(ns)
	if err := wf.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	cr := cl.Dynamic.Resource(coderun.Resource).Namespace(ns)
	if err := cr.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	cms, err := cl.Kube.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, cm := range cms.Items {
		if strings.HasPrefix(cm.Name, "play-progress-") || strings.HasPrefix(cm.Name, "play-release-") || cm.Labels[platformkeys.ProgressTrackingLabel] == "true" {
			if err := cl.Kube.CoreV1().ConfigMaps(ns).Delete(ctx, cm.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				return err
			}
		}
	}
	return kube.Poll(ctx, 3*time.Minute, func() (bool, error) {
		list, err := wf.List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		pods, err := cl.Kube.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: kube.ArgoLabelWorkflow})
		if err != nil {
			return false, err
		}
		return len(list.Items) == 0 && len(pods.Items) == 0, nil
	})
}

func printTable(w io.Writer, results []result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "scenario\treal controllers\tsimulator\tagree\tresult")
	for _, r := range results {
		agree := "yes"
		if r.Real == nil {
			agree = "-"
		} else if len(r.Diff) > 0 {
			agree = "no"
		}
		verdict := "pass"
		if !r.Passed {
			verdict = "FAIL"
		}
		if r.Expect != "" {
			verdict += " (known: " + r.Expect + ")"
		}
		realText := r.Real.Summary()
		if r.Error != "" && r.Real == nil {
			realText = "error: " + firstLine(r.Error)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Name, realText, r.Simulator.Summary(), agree, verdict)
	}
	_ = tw.Flush()
	for _, r := range results {
		for _, d := range r.Diff {
			fmt.Fprintf(w, "  %s: %s\n", r.Name, d)
		}
		if r.Error != "" {
			fmt.Fprintf(w, "  %s: %s\n", r.Name, r.Error)
		}
		for _, x := range r.Refused {
			fmt.Fprintf(w, "  %s: refused: %s\n", r.Name, x)
		}
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	if len(s) > 120 {
		return s[:120] + "..."
	}
	return s
}
