// Package cluster brings up everything a scenario runs on: the control plane, the NATS server of the
// event bus, the process node (in this process), and Argo Workflows and Argo Events as upstream ships
// them; and takes it all down again.
package cluster

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"cdk8s-agent-play/e2e/internal/controlplane"
	"cdk8s-agent-play/e2e/internal/eventbus"
	"cdk8s-agent-play/e2e/internal/fakegithub"
	"cdk8s-agent-play/e2e/internal/kube"
	"cdk8s-agent-play/e2e/internal/proc"
	"cdk8s-agent-play/e2e/internal/upstream"
	"cdk8s-agent-play/e2e/node"
)

// Bus is one NATS server (TLS, JetStream) on the host, forwarded into every pod: the event bus of one
// namespace. Argo Events names its JetStream stream "default" whatever the EventBus
// (pkg/apis/events/v1alpha1/const.go, JetStreamStreamName), and its subjects by EventSource and event, so
// two namespaces on one server would receive each other's events: each namespace run at once gets a
// server of its own.
type Bus struct {
	// Address is where pods reach it (host:port).
	Address string
	// Monitor reads its JetStream state (the Sensors' consumers).
	Monitor *eventbus.Monitor
	proc    *proc.Process
}

// natsPort and natsMonitorPort are the first bus's ports; bus i takes the port i above each.
const (
	natsPort        = 4222
	natsMonitorPort = 8222
)

// Options says where things are.
type Options struct {
	E2EDir, BinDir, RunDir string
	// Self is this program (it starts each container).
	Self string
	Log  io.Writer
	// Bare stops after the control plane and the node: no Argo (for looking at the node alone).
	Bare bool
	// NoEvents skips Argo Events.
	NoEvents bool
	// Buses is how many event buses to start (one per namespace run at once; at least one).
	Buses int
	// Controller is the workflow controller's configuration to start with (RestartWorkflowController
	// changes it).
	Controller upstream.ControllerConfig
}

// Cluster is a running local cluster.
type Cluster struct {
	CP     *controlplane.ControlPlane
	Node   *node.Node
	Client *kube.Client
	// Buses are the event buses, one per namespace run at once.
	Buses []*Bus
	// GitHub is the fake GitHub of the direct agents (their tokens, their git server), forwarded into
	// every pod.
	GitHub   *fakegithub.Server
	opts     Options
	stopNode context.CancelFunc
	nodeDone chan struct{}
	stopOnce sync.Once
}

func (c *Cluster) logf(format string, args ...any) {
	fmt.Fprintf(c.opts.Log, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

// Start brings the cluster up; on failure it takes down what it started.
func Start(ctx context.Context, o Options) (cl *Cluster, err error) {
	c := &Cluster{opts: o}
	defer func() {
		if err != nil {
			c.Stop()
		}
	}()
	t0 := time.Now()
	// Containers run as other users and reach their programs and volumes through this folder.
	if err := os.MkdirAll(o.RunDir, 0o755); err != nil {
		return nil, err
	}
	if err := os.Chmod(o.RunDir, 0o755); err != nil {
		return nil, err
	}
	node.CleanNetns()
	_ = os.RemoveAll(filepath.Join(o.RunDir, "pods"))
	_ = os.RemoveAll(filepath.Join(o.RunDir, "pvcs"))
	_ = os.RemoveAll(filepath.Join(o.RunDir, "logs"))
	c.CP, err = controlplane.Start(ctx, controlplane.Config{BinDir: o.BinDir, RunDir: o.RunDir})
	if err != nil {
		return nil, err
	}
	c.logf("control plane ready (%s)", time.Since(t0).Round(time.Second))
	if c.Client, err = kube.NewClient(c.CP.AdminKubeconfig); err != nil {
		return nil, err
	}
	hostServices := []string{"127.0.0.1:6443"}
	for i := range max(o.Buses, 1) {
		b, err := startBus(c.CP, o.BinDir, o.RunDir, i)
		if err != nil {
			return nil, err
		}
		c.Buses = append(c.Buses, b)
		hostServices = append(hostServices, b.Address)
	}
	if c.GitHub, err = fakegithub.Start(filepath.Join(o.RunDir, "github"), c.CP.PKI.ServingCert, c.CP.PKI.ServingKey, c.CP.PKI.CACert); err != nil {
		return nil, err
	}
	hostServices = append(hostServices, fakegithub.Address)
	images, err := node.LoadImageTable(filepath.Join(o.E2EDir, "images.yaml"), o.BinDir, o.E2EDir)
	if err != nil {
		return nil, err
	}
	nodeLog, err := os.OpenFile(filepath.Join(c.CP.LogDir, "process-node.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	// The small container-init program, when built beside the others (e2e/run.mjs builds it), starts each
	// container in a quarter of the harness binary's time.
	initProgram := filepath.Join(o.BinDir, "container-init")
	if _, err := os.Stat(initProgram); err != nil {
		initProgram = ""
	}
	n := node.New(node.Config{
		Name: "process-node", RunDir: o.RunDir, LogDir: c.CP.LogDir,
		ServingCert: c.CP.PKI.NodeCert, ServingKey: c.CP.PKI.NodeKey, Port: controlplane.KubeletPort,
		Images: images, Self: o.Self, InitProgram: initProgram, HostServices: hostServices, Log: nodeLog,
	}, c.Client.Kube)
	c.Node = n
	nodeCtx, cancel := context.WithCancel(context.Background())
	c.stopNode = cancel
	c.nodeDone = make(chan struct{})
	ready := make(chan error, 1)
	go func() {
		defer close(c.nodeDone)
		defer nodeLog.Close()
		n.Run(nodeCtx, ready)
	}()
	if err := <-ready; err != nil {
		return nil, fmt.Errorf("process node: %w", err)
	}
	if err := c.waitControllers(ctx); err != nil {
		return nil, err
	}
	c.logf("process node registered, controller manager serving (%s)", time.Since(t0).Round(time.Second))
	if o.Bare {
		return c, nil
	}
	// The two installs are independent: at once, each applying its CRDs (which the API server takes some
	// seconds each to serve) and waiting for its controller's pod.
	p := upstream.Paths{E2EDir: o.E2EDir, Controller: o.Controller}
	installs := map[string]func(context.Context, *kube.Client, upstream.Paths) error{"argo workflows": upstream.InstallArgoWorkflows}
	if !o.NoEvents {
		installs["argo events"] = upstream.InstallArgoEvents
	}
	errs := make(chan error, len(installs))
	for name, install := range installs {
		go func() {
			if err := install(ctx, c.Client, p); err != nil {
				errs <- fmt.Errorf("%s: %w", name, err)
				return
			}
			c.logf("%s controller running (%s)", name, time.Since(t0).Round(time.Second))
			errs <- nil
		}()
	}
	var first error
	for range installs {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	if first != nil {
		return nil, first
	}
	return c, nil
}

// RestartWorkflowController gives the workflow controller another configuration and restarts it
// (upstream.RestartWorkflowController); no scenario may be running.
func (c *Cluster) RestartWorkflowController(ctx context.Context, cfg upstream.ControllerConfig) error {
	return upstream.RestartWorkflowController(ctx, c.Client, upstream.Paths{E2EDir: c.opts.E2EDir, Controller: cfg})
}

// startBus starts bus i: a NATS server with JetStream and TLS (the API server's serving certificate), and
// its monitoring endpoint (/jsz) on the host only.
func startBus(cp *controlplane.ControlPlane, binDir, runDir string, i int) (*Bus, error) {
	name := "nats-server"
	if i > 0 {
		name = fmt.Sprintf("nats-server-%d", i)
	}
	store := filepath.Join(runDir, name)
	_ = os.RemoveAll(store)
	port, monitor := natsPort+i, natsMonitorPort+i
	p, err := proc.Start(name, filepath.Join(binDir, "nats-server"), []string{
		"--addr", "127.0.0.1", "--port", strconv.Itoa(port), "--jetstream", "--store_dir", store,
		"--http_port", strconv.Itoa(monitor),
		"--tls", "--tlscert", cp.PKI.ServingCert, "--tlskey", cp.PKI.ServingKey,
	}, nil, cp.LogDir, filepath.Join(runDir, "pids"))
	if err != nil {
		return nil, err
	}
	return &Bus{Address: fmt.Sprintf("127.0.0.1:%d", port), Monitor: eventbus.NewMonitor(fmt.Sprintf("http://127.0.0.1:%d", monitor)), proc: p}, nil
}

// waitControllers waits for the controller manager's first work: the default service account and the
// root CA ConfigMap in namespace default (pods need both).
func (c *Cluster) waitControllers(ctx context.Context) error {
	return kube.Poll(ctx, 90*time.Second, func() (bool, error) {
		if _, err := c.Client.Kube.CoreV1().ServiceAccounts("default").Get(ctx, "default", metav1.GetOptions{}); err != nil {
			if apierrors.IsNotFound(err) {
				return false, nil
			}
			return false, err
		}
		_, err := c.Client.Kube.CoreV1().ConfigMaps("default").Get(ctx, "kube-root-ca.crt", metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// Stop takes everything down: the pods' processes, then NATS, then the control plane (once: later calls
// do nothing).
func (c *Cluster) Stop() { c.stopOnce.Do(c.stop) }

func (c *Cluster) stop() {
	if c.stopNode != nil {
		c.stopNode()
		select {
		case <-c.nodeDone:
		case <-time.After(30 * time.Second):
		}
	}
	node.CleanNetns()
	if c.GitHub != nil {
		c.GitHub.Close()
	}
	for _, b := range c.Buses {
		b.proc.Stop(5 * time.Second)
	}
	if c.CP != nil {
		c.CP.Stop()
	}
}

// CPU gives, once the cluster has stopped, the processor time of each of its parts: the control plane's
// processes and the event buses by name, the pods' containers by namespace ("pods/NAMESPACE").
func (c *Cluster) CPU() map[string]time.Duration {
	out := map[string]time.Duration{}
	if c.CP != nil {
		for name, d := range c.CP.CPU() {
			out[name] += d
		}
	}
	for _, b := range c.Buses {
		out["nats-server"] += b.proc.CPU()
	}
	if c.Node != nil {
		for ns, d := range c.Node.CPUByNamespace() {
			out["pods/"+ns] += d
		}
	}
	return out
}
