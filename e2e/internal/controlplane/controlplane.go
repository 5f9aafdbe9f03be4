// Package controlplane starts a local Kubernetes control plane from binaries built from Kubernetes' own
// modules: etcd, kube-apiserver (RBAC, service-account tokens, the PodSecurity admission plugin) and
// kube-controller-manager (garbage collection, deployments, replica sets, stateful sets, service accounts,
// namespaces, the root CA publisher). There is no scheduler: the process node binds the pods itself.
package controlplane

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"cdk8s-agent-play/e2e/internal/pki"
	"cdk8s-agent-play/e2e/internal/proc"
)

// Fixed addresses: one control plane per machine at a time (a new run ends the previous one).
const (
	APIServerURL = "https://127.0.0.1:6443"
	etcdClient   = "http://127.0.0.1:2379"
	adminToken   = "e2e-admin-token"
	// KubeletPort is where the API server reaches the process node (pods/exec).
	KubeletPort = 10250
)

// Config says where the binaries are and where the run keeps its state and logs.
type Config struct {
	BinDir, RunDir string
}

// ControlPlane is a started control plane.
type ControlPlane struct {
	PKI             pki.Files
	AdminKubeconfig string
	LogDir          string
	// AuditLog holds the API server's audit events of the service accounts' requests (see auditPolicy).
	AuditLog string
	procs    []*proc.Process
	// stopped are the processes Stop ended (for CPU).
	stopped []*proc.Process
}

// Start ends any control plane an earlier run left, then starts a fresh one (empty etcd) and returns once
// the API server is ready and the controller manager runs.
func Start(ctx context.Context, c Config) (*ControlPlane, error) {
	logDir := filepath.Join(c.RunDir, "logs")
	pidDir := filepath.Join(c.RunDir, "pids")
	if err := proc.KillLeftovers(pidDir, c.BinDir); err != nil {
		return nil, err
	}
	files, err := pki.Ensure(filepath.Join(c.RunDir, "pki"))
	if err != nil {
		return nil, err
	}
	cp := &ControlPlane{PKI: files, LogDir: logDir, AdminKubeconfig: filepath.Join(c.RunDir, "admin.kubeconfig")}
	if err := WriteKubeconfig(cp.AdminKubeconfig, files.CACert, adminToken, ""); err != nil {
		return nil, err
	}
	tokens := filepath.Join(c.RunDir, "tokens.csv")
	if err := os.WriteFile(tokens, []byte(adminToken+`,admin,admin,"system:masters"`+"\n"), 0o600); err != nil {
		return nil, err
	}
	policy := filepath.Join(c.RunDir, "audit-policy.yaml")
	if err := os.WriteFile(policy, []byte(auditPolicy), 0o644); err != nil {
		return nil, err
	}
	cp.AuditLog = filepath.Join(logDir, "audit.log")
	_ = os.Remove(cp.AuditLog)
	etcdData := filepath.Join(c.RunDir, "etcd")
	if err := os.RemoveAll(etcdData); err != nil {
		return nil, err
	}
	start := func(name string, args ...string) error {
		p, err := proc.Start(name, filepath.Join(c.BinDir, name), args, nil, logDir, pidDir)
		if err != nil {
			return err
		}
		cp.procs = append(cp.procs, p)
		return nil
	}
	if err := start("etcd", "--data-dir", etcdData, "--listen-client-urls", etcdClient, "--advertise-client-urls", etcdClient,
		"--listen-peer-urls", "http://127.0.0.1:2380", "--initial-advertise-peer-urls", "http://127.0.0.1:2380",
		"--initial-cluster", "default=http://127.0.0.1:2380", "--unsafe-no-fsync", "--log-level", "warn"); err != nil {
		return nil, err
	}
	if err := start("kube-apiserver",
		"--etcd-servers", etcdClient, "--bind-address", "127.0.0.1", "--advertise-address", "127.0.0.1", "--secure-port", "6443",
		"--tls-cert-file", files.ServingCert, "--tls-private-key-file", files.ServingKey,
		"--client-ca-file", files.CACert, "--token-auth-file", tokens,
		"--authorization-mode", "RBAC",
		"--audit-policy-file", policy, "--audit-log-path", cp.AuditLog, "--audit-log-format", "json",
		"--audit-log-mode", "batch", "--audit-log-batch-max-wait", "1s", "--audit-log-maxsize", "200",
		"--service-account-issuer", "https://kubernetes.default.svc", "--api-audiences", "https://kubernetes.default.svc",
		"--service-account-key-file", files.SAPub, "--service-account-signing-key-file", files.SAKey,
		"--service-cluster-ip-range", "10.0.0.0/24",
		// The kubernetes Service cannot point at a loopback address; pods are given 127.0.0.1 directly.
		"--endpoint-reconciler-type", "none",
		"--kubelet-certificate-authority", files.CACert, "--kubelet-client-certificate", files.NodeCert, "--kubelet-client-key", files.NodeKey,
		"--kubelet-preferred-address-types", "InternalIP",
		"--enable-admission-plugins", "PodSecurity,ServiceAccount,NamespaceLifecycle,LimitRanger,DefaultStorageClass,ResourceQuota"); err != nil {
		return nil, err
	}
	if err := cp.waitReady(ctx, 120*time.Second); err != nil {
		cp.Stop()
		return nil, err
	}
	if err := start("kube-controller-manager",
		"--kubeconfig", cp.AdminKubeconfig, "--leader-elect=false", "--bind-address", "127.0.0.1", "--secure-port", "10257",
		"--use-service-account-credentials=false", "--root-ca-file", files.CACert,
		"--authentication-kubeconfig", cp.AdminKubeconfig, "--authorization-kubeconfig", cp.AdminKubeconfig,
		// serviceaccount-token-controller fills the token Secrets a platform makes for a service account
		// (type kubernetes.io/service-account-token): Argo mounts the executor's in a direct agent's init and
		// wait containers (workflow/controller/workflowpod.go, setupServiceAccount). It signs with the key the
		// API server verifies.
		"--service-account-private-key-file", files.SAKey,
		"--controllers", "garbage-collector-controller,deployment-controller,replicaset-controller,statefulset-controller,serviceaccount-controller,serviceaccount-token-controller,namespace-controller,root-ca-certificate-publisher-controller"); err != nil {
		cp.Stop()
		return nil, err
	}
	return cp, nil
}

// auditPolicy records, at Metadata level, what service accounts ask (every request of a pod or a
// controller): the harness reads the refusals (403: RBAC or PodSecurity) back from it.
const auditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: None
    resources:
      - group: coordination.k8s.io
        resources: [leases]
  - level: Metadata
    userGroups: ["system:serviceaccounts"]
  - level: None
`

// waitReady polls /readyz until it answers 200.
func (cp *ControlPlane) waitReady(ctx context.Context, limit time.Duration) error {
	pool := x509.NewCertPool()
	b, err := os.ReadFile(cp.PKI.CACert)
	if err != nil {
		return err
	}
	pool.AppendCertsFromPEM(b)
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	deadline := time.Now().Add(limit)
	for {
		for _, p := range cp.procs {
			if done, err := p.Exited(); done {
				return fmt.Errorf("%s exited (%v); see %s", p.Name, err, filepath.Join(cp.LogDir, p.Name+".log"))
			}
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, APIServerURL+"/readyz", nil)
		req.Header.Set("Authorization", "Bearer "+adminToken)
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("kube-apiserver not ready after %s; see %s", limit, filepath.Join(cp.LogDir, "kube-apiserver.log"))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// Stop ends the processes in the reverse order of their start.
func (cp *ControlPlane) Stop() {
	for i := len(cp.procs) - 1; i >= 0; i-- {
		cp.procs[i].Stop(10 * time.Second)
	}
	cp.stopped = append(cp.stopped, cp.procs...)
	cp.procs = nil
}

// WriteKubeconfig writes a kubeconfig for the local API server with a bearer token; namespace may be "".
func WriteKubeconfig(path, caFile, token, namespace string) error {
	ns := ""
	if namespace != "" {
		ns = "\n    namespace: " + namespace
	}
	text := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: e2e
  cluster:
    server: %s
    certificate-authority: %s
users:
- name: e2e
  user:
    token: %s
contexts:
- name: e2e
  context:
    cluster: e2e
    user: e2e%s
current-context: e2e
`, APIServerURL, caFile, token, ns)
	return os.WriteFile(path, []byte(text), 0o600)
}

// CPU gives the processor time of each process of the control plane, by name, once stopped.
func (cp *ControlPlane) CPU() map[string]time.Duration {
	out := map[string]time.Duration{}
	for _, p := range cp.stopped {
		out[p.Name] += p.CPU()
	}
	return out
}
