// Package upstream installs Argo Workflows and Argo Events as their projects ship them: the
// cluster-install kustomizations of the module sources in the Go module cache (never copied into this
// repository), rendered by kustomize (the library `kubectl kustomize` runs) and applied server-side. Their controllers then run as
// pods on the process node, under their own service accounts and RBAC.
package upstream

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"cdk8s-agent-play/e2e/internal/kube"
)

// Paths locate the tools and module folders, and say how the workflow controller is configured.
type Paths struct {
	E2EDir string
	// Controller is the workflow controller's configuration beside the harness's own (ControllerConfig).
	Controller ControllerConfig
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

// render builds a kustomization folder of a module's manifests, as `kubectl kustomize` does (the same
// library, sigs.k8s.io/kustomize/api, with its default options). Rendering Argo Workflows' full CRDs takes
// kustomize about a minute of a loaded 2-core machine (nearly all of a warm cluster start), so the result is
// kept in the user cache folder, keyed by the folder: a module cache folder names its module and version and
// never changes (the go command makes it read-only).
func render(dir string) ([]*unstructured.Unstructured, error) {
	cached := renderCacheFile(dir)
	if b, err := os.ReadFile(cached); err == nil {
		if objs, err := kube.DecodeObjects(b); err == nil && len(objs) > 0 {
			return objs, nil
		}
	}
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		return nil, fmt.Errorf("kustomize %s: %w", dir, err)
	}
	out, err := m.AsYaml()
	if err != nil {
		return nil, fmt.Errorf("kustomize %s: %w", dir, err)
	}
	objs, err := kube.DecodeObjects(out)
	if err != nil {
		return nil, err
	}
	writeCache(cached, out)
	return objs, nil
}

// renderCacheVersion changes when what render keeps changes (its key or its format).
const renderCacheVersion = "1"

// renderCacheFile is where the rendering of a kustomization folder is kept.
func renderCacheFile(dir string) string {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	sum := sha256.Sum256([]byte(renderCacheVersion + "\x00" + dir))
	return filepath.Join(cache, "cdk8s-agent-play-e2e", "rendered", hex.EncodeToString(sum[:12])+".yaml")
}

// writeCache writes the file whole or not at all (a temporary file renamed); a cache that cannot be
// written costs the next run a rendering, nothing more.
func writeCache(file string, b []byte) {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".render-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), file) != nil {
		_ = os.Remove(tmp.Name())
	}
}

// RequeueTime is the Argo Workflows controller's DEFAULT_REQUEUE_TIME here: how long it waits before it
// looks again at a Workflow after a change of it or of one of its pods (workflow/controller/rate_limiters.go,
// GetRequeueTime; 10 s unless set, and upstream suggests as low as 2 s for workflows of many short nodes,
// which a play is, and keeps 1 s as the least, below which its informers are unlikely to have caught up).
// Every pod of a play waits that long to be noticed, so the default makes each stage several times 10 s;
// the platform must not depend on it, and a shorter wait makes its races likelier.
const RequeueTime = "1s"

// ResourceCheckInterval is how often a resource template's pod looks at its object for its success or
// failure condition: argoexec's RESOURCE_STATE_CHECK_INTERVAL (workflow/executor/resource.go; 5 s unless
// set), given to every executor container by the controller's configuration (`executor.env` of the
// workflow-controller-configmap, config/config.go), as an operator sets it. A play's wait step polls its
// CodeRun this way: with 5 s every agent stage ends up to 5 s after its CodeRun did.
const ResourceCheckInterval = "1s"

// executorConfig is the workflow-controller-configmap's `executor` entry the harness sets.
var executorConfig = "env:\n  - name: RESOURCE_STATE_CHECK_INTERVAL\n    value: " + ResourceCheckInterval + "\n"

// setExecutorConfig gives the workflow-controller-configmap its `executor` entry; upstream ships it empty.
func setExecutorConfig(cm *unstructured.Unstructured) error {
	if _, found, _ := unstructured.NestedString(cm.Object, "data", "executor"); found {
		return fmt.Errorf("the upstream workflow-controller-configmap sets executor already")
	}
	return unstructured.SetNestedField(cm.Object, executorConfig, "data", "executor")
}

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
	return install(ctx, c, p, "argo-workflows", argoWorkflowsModule, controllerNamespace, "workflow-controller",
		func(o *unstructured.Unstructured) (bool, error) { return editArgoWorkflows(o, p.Controller) })
}

const argoWorkflowsModule = "github.com/argoproj/argo-workflows/v4"

// editArgoWorkflows drops the Argo Server and gives the controller the harness's settings (RequeueTime,
// executorConfig) and cfg.
func editArgoWorkflows(o *unstructured.Unstructured, cfg ControllerConfig) (bool, error) {
	if strings.HasPrefix(o.GetName(), "argo-server") {
		return false, nil
	}
	if o.GetKind() == "Deployment" && o.GetName() == "workflow-controller" {
		return true, setControllerEnv(o, "DEFAULT_REQUEUE_TIME", RequeueTime)
	}
	if o.GetKind() == "ConfigMap" && o.GetName() == "workflow-controller-configmap" {
		if err := setExecutorConfig(o); err != nil {
			return true, err
		}
		return true, cfg.apply(o)
	}
	return true, nil
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
	keep, err := objects(p, folder, module, edit)
	if err != nil {
		return err
	}
	if err := ensureNamespace(ctx, c, ns); err != nil {
		return err
	}
	if err := c.Apply(ctx, keep, ns); err != nil {
		return err
	}
	return WaitDeployment(ctx, c, ns, deployment, 3*time.Minute)
}

// objects renders a module's manifests/cluster-install and gives the objects edit keeps, edited.
func objects(p Paths, folder, module string, edit func(*unstructured.Unstructured) (bool, error)) ([]*unstructured.Unstructured, error) {
	dir, err := moduleDir(filepath.Join(p.E2EDir, "upstream", folder), module)
	if err != nil {
		return nil, err
	}
	objs, err := render(filepath.Join(dir, "manifests", "cluster-install"))
	if err != nil {
		return nil, err
	}
	var keep []*unstructured.Unstructured
	for _, o := range objs {
		ok, err := edit(o)
		if err != nil {
			return nil, err
		}
		if ok {
			keep = append(keep, o)
		}
	}
	return keep, nil
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
