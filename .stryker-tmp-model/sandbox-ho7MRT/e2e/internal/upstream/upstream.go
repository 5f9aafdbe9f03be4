// Package upstream installs Argo Workflows and Argo Events as their projects ship them: the
// cluster-install kustomizations of the module sources in the Go module cache (never copied into this
// repository), rendered by kubectl's kustomize and applied server-side. Their controllers then run as
// pods on the process node, under their own service accounts and RBAC.
package upstream

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"cdk8s-agent-play/e2e/internal/kube"
)

// Paths locate the tools and module folders.
type Paths struct {
	E2EDir, Kubectl string
}

// moduleDir gives the module cache folder of a module required by one of our upstream modules.
func moduleDir(moduleDir, module string) (string, error) {
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module)
	cmd.Dir = moduleDir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("locate %s: %w", module, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// render runs `kubectl kustomize` on a folder of a module's manifests.
func render(kubectl, dir string) ([]*unstructured.Unstructured, error) {
	var out, errb bytes.Buffer
	cmd := exec.Command(kubectl, "kustomize", dir)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("kubectl kustomize %s: %v: %s", dir, err, errb.String())
	}
	return kube.DecodeObjects(out.Bytes())
}

// RequeueTime is the Argo Workflows controller's DEFAULT_REQUEUE_TIME here: how long it waits before it
// looks again at a Workflow after a change of it or of one of its pods (workflow/controller/rate_limiters.go,
// GetRequeueTime; 10 s unless set, and upstream suggests as low as 2 s for workflows of many short nodes,
// which a play is). Every pod of a play waits that long to be noticed, so the default makes each stage
// several times 10 s; the platform must not depend on it, and a shorter wait makes its races likelier.
const RequeueTime = "2s"

// setControllerEnv sets an environment variable of the workflow-controller container.
func setControllerEnv(d *unstructured.Unstructured, name, value string) error {
	containers, _, err := unstructured.NestedSlice(d.Object, "spec", "template", "spec", "containers")
	if err != nil {
		return err
	}
	for i, c := range containers {
		cm, ok := c.(map[string]any)
		if !ok || cm["name"] != "workflow-controller" {
			continue
		}
		env, _ := cm["env"].([]any)
		cm["env"] = append(env, map[string]any{"name": name, "value": value})
		containers[i] = cm
		return unstructured.SetNestedSlice(d.Object, containers, "spec", "template", "spec", "containers")
	}
	return fmt.Errorf("the workflow-controller Deployment has no workflow-controller container")
}

// InstallArgoWorkflows applies manifests/cluster-install (full CRDs, the controller, its RBAC) without
// the Argo Server, which the harness does not use, and waits for the controller.
func InstallArgoWorkflows(ctx context.Context, c *kube.Client, p Paths) error {
	return install(ctx, c, p, "argo-workflows", "github.com/argoproj/argo-workflows/v4", "argo", "workflow-controller",
		func(o *unstructured.Unstructured) (bool, error) {
			if strings.HasPrefix(o.GetName(), "argo-server") {
				return false, nil
			}
			if o.GetKind() == "Deployment" && o.GetName() == "workflow-controller" {
				return true, setControllerEnv(o, "DEFAULT_REQUEUE_TIME", RequeueTime)
			}
			return true, nil
		})
}

// InstallArgoEvents applies manifests/cluster-install (CRDs, the controller manager, its RBAC and
// controller config) and waits for the controller.
func InstallArgoEvents(ctx context.Context, c *kube.Client, p Paths) error {
	return install(ctx, c, p, "argo-events", "github.com/argoproj/argo-events", "argo-events", "controller-manager",
		func(*unstructured.Unstructured) (bool, error) { return true, nil })
}

// install renders a module's manifests/cluster-install (the module as e2e/upstream/{folder} requires it),
// applies the objects edit keeps (after its changes) to namespace ns and waits for its deployment.
func install(ctx context.Context, c *kube.Client, p Paths, folder, module, ns, deployment string,
	edit func(*unstructured.Unstructured) (bool, error)) error {
	dir, err := moduleDir(filepath.Join(p.E2EDir, "upstream", folder), module)
	if err != nil {
		return err
	}
	objs, err := render(p.Kubectl, filepath.Join(dir, "manifests", "cluster-install"))
	if err != nil {
		return err
	}
	var keep []*unstructured.Unstructured
	for _, o := range objs {
		ok, err := edit(o)
		if err != nil {
			return err
		}
		if ok {
			keep = append(keep, o)
		}
	}
	if err := ensureNamespace(ctx, c, ns); err != nil {
		return err
	}
	if err := c.Apply(ctx, keep, ns); err != nil {
		return err
	}
	return WaitDeployment(ctx, c, ns, deployment, 3*time.Minute)
}

func ensureNamespace(ctx context.Context, c *kube.Client, name string) error {
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": name}}}
	return c.Apply(ctx, []*unstructured.Unstructured{u}, "")
}

// WaitDeployment waits until the deployment has an available replica.
func WaitDeployment(ctx context.Context, c *kube.Client, ns, name string, limit time.Duration) error {
	var last *appsv1.Deployment
	err := kube.Poll(ctx, limit, func() (bool, error) {
		d, err := c.Kube.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		last = d
		return d.Status.AvailableReplicas > 0, nil
	})
	if err != nil {
		if last != nil {
			return fmt.Errorf("deployment %s/%s not available: %v (status %+v)", ns, name, err, last.Status)
		}
		return fmt.Errorf("deployment %s/%s: %w", ns, name, err)
	}
	return nil
}
