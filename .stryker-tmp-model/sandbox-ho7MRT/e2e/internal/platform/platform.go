// Package platform puts the synthesized platform on the cluster: its namespace (PodSecurity restricted),
// what the cluster must give it (the EventBus, the webhook Secret: docs/events.md), then the manifests
// with server-side apply, as ArgoCD syncs them.
package platform

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"cdk8s-agent-play/e2e/internal/kube"
)

// WebhookSecret is the GitHub webhook secret the harness signs its deliveries with.
const WebhookSecret = "e2e-webhook-secret"

// Synth writes the platform of a configuration (agent-play's own CLI) into out.
func Synth(repoDir, config, out string) error {
	cmd := exec.Command("node", filepath.Join(repoDir, "build", "cli.cjs"), "synth", "--config", config, "--out", out)
	cmd.Dir = repoDir
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &errb, &errb
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("agent-play synth --config %s: %v: %s", config, err, errb.String())
	}
	return nil
}

// Namespaces gives the namespaces the manifests name.
func Namespaces(objs []*unstructured.Unstructured) []string {
	seen := map[string]bool{}
	var out []string
	for _, o := range objs {
		if ns := o.GetNamespace(); ns != "" && !seen[ns] {
			seen[ns] = true
			out = append(out, ns)
		}
	}
	return out
}

// Prepare makes the namespace (enforcing the restricted Pod Security Standard), its EventBus (a
// jetstreamExotic bus on the harness's NATS server) and the webhook Secret.
func Prepare(ctx context.Context, c *kube.Client, ns, natsURL string) error {
	objs := []*unstructured.Unstructured{
		{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns, "labels": map[string]any{
			"pod-security.kubernetes.io/enforce": "restricted", "pod-security.kubernetes.io/enforce-version": "latest",
			"pod-security.kubernetes.io/warn": "restricted", "pod-security.kubernetes.io/audit": "restricted",
		}}}},
		{Object: map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "github-webhook-secret", "namespace": ns},
			"stringData": map[string]any{"secret": WebhookSecret}}},
		{Object: map[string]any{"apiVersion": "argoproj.io/v1alpha1", "kind": "EventBus", "metadata": map[string]any{"name": "default", "namespace": ns},
			"spec": map[string]any{"jetstreamExotic": map[string]any{"url": natsURL, "streamConfig": "replicas: 1\n"}}}},
	}
	return c.Apply(ctx, objs, ns)
}

// Apply applies every manifest of dir.
func Apply(ctx context.Context, c *kube.Client, dir string) ([]*unstructured.Unstructured, error) {
	objs, err := kube.ReadObjects(dir)
	if err != nil {
		return nil, err
	}
	if len(objs) == 0 {
		return nil, fmt.Errorf("%s holds no manifests", dir)
	}
	return objs, c.Apply(ctx, objs, "")
}

// Exists tells whether a path exists.
func Exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
