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
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"cdk8s-agent-play/e2e/internal/controlplane"
	"cdk8s-agent-play/e2e/internal/kube"
	"cdk8s-agent-play/e2e/internal/proc"
	"cdk8s-agent-play/e2e/internal/upstream"
	"cdk8s-agent-play/e2e/node"
)

// NATSAddress is the event bus's NATS server (TLS, JetStream), on the host, forwarded into each pod.
const NATSAddress = "127.0.0.1:4222"

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
}

// Cluster is a running local cluster.
type Cluster struct {
	CP       *controlplane.ControlPlane
	Node     *node.Node
	Client   *kube.Client
	opts     Options
	nats     *proc.Process
	stopNode context.CancelFunc
	nodeDone chan struct{}
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
	natsStore := filepath.Join(o.RunDir, "nats")
	_ = os.RemoveAll(natsStore)
	c.nats, err = proc.Start("nats-server", filepath.Join(o.BinDir, "nats-server"), []string{
		"--addr", "127.0.0.1", "--port", "4222", "--jetstream", "--store_dir", natsStore,
		"--tls", "--tlscert", c.CP.PKI.ServingCert, "--tlskey", c.CP.PKI.ServingKey,
	}, nil, c.CP.LogDir, filepath.Join(o.RunDir, "pids"))
	if err != nil {
		return nil, err
	}
	images, err := node.LoadImageTable(filepath.Join(o.E2EDir, "images.yaml"), o.BinDir, o.E2EDir)
	if err != nil {
		return nil, err
	}
	nodeLog, err := os.OpenFile(filepath.Join(c.CP.LogDir, "process-node.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	n := node.New(node.Config{
		Name: "process-node", RunDir: o.RunDir, LogDir: c.CP.LogDir,
		ServingCert: c.CP.PKI.NodeCert, ServingKey: c.CP.PKI.NodeKey, Port: controlplane.KubeletPort,
		Images: images, Self: o.Self, HostServices: []string{"127.0.0.1:6443", NATSAddress}, Log: nodeLog,
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
	p := upstream.Paths{E2EDir: o.E2EDir, Kubectl: filepath.Join(o.BinDir, "kubectl")}
	if err := upstream.InstallArgoWorkflows(ctx, c.Client, p); err != nil {
		return nil, fmt.Errorf("argo workflows: %w", err)
	}
	c.logf("argo workflows controller running (%s)", time.Since(t0).Round(time.Second))
	if o.NoEvents {
		return c, nil
	}
	if err := upstream.InstallArgoEvents(ctx, c.Client, p); err != nil {
		return nil, fmt.Errorf("argo events: %w", err)
	}
	c.logf("argo events controller running (%s)", time.Since(t0).Round(time.Second))
	return c, nil
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

// Stop takes everything down: the pods' processes, then NATS, then the control plane.
func (c *Cluster) Stop() {
	if c.stopNode != nil {
		c.stopNode()
		select {
		case <-c.nodeDone:
		case <-time.After(30 * time.Second):
		}
	}
	node.CleanNetns()
	if c.nats != nil {
		c.nats.Stop(5 * time.Second)
	}
	if c.CP != nil {
		c.CP.Stop()
	}
}
