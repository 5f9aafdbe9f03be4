// Package programs builds the programs the harness runs, from the pinned Go modules under e2e/: the control
// plane (e2e/go.mod), Argo Workflows (upstream/argo-workflows) and Argo Events (upstream/argo-events).
// Only what runs is built: kubectl is not (the harness renders the upstream kustomizations with the
// kustomize library; argoexec runs its resource actions with kubectl's code inside itself), nor the argo
// CLI (no pod of the platform runs its image).
// The go command's build cache makes a rebuild of an unchanged module a link at most; a program whose
// inputs are unchanged is not linked again (go build compares the build id of the file it would write).
package programs

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Versions of what is built (each also pinned by its go.mod).
const (
	KubernetesVersion     = "v1.37.2"
	ArgoWorkflowsVersion  = "v4.0.5"
	ArgoEventsVersion     = "v1.9.11"
	argoWorkflowsModule   = "github.com/argoproj/argo-workflows/v4"
	kubeVersionPackage    = "k8s.io/component-base/version"
	argoWorkflowsVersionX = argoWorkflowsModule + ".version"
)

// target is one go build: packages of one module, written to the bin folder under the names given.
type target struct {
	moduleDir string
	ldflags   string
	// argoCopy: build from a copy of the Argo Workflows module (see argoCopy).
	argoCopy bool
	programs map[string]string // package -> program name
}

func targets(e2eDir string) []target {
	kube := "-s -w -X " + kubeVersionPackage + ".gitVersion=" + KubernetesVersion + " -X " + kubeVersionPackage + ".gitMajor=1 -X " + kubeVersionPackage + ".gitMinor=37"
	return []target{
		{moduleDir: e2eDir, ldflags: kube, programs: map[string]string{
			"k8s.io/kubernetes/cmd/kube-apiserver":          "kube-apiserver",
			"k8s.io/kubernetes/cmd/kube-controller-manager": "kube-controller-manager",
			"go.etcd.io/etcd/server/v3":                     "etcd",
			"github.com/nats-io/nats-server/v2":             "nats-server",
			// The fake agent CLI of the direct agents' images (e2e/images.yaml).
			"cdk8s-agent-play/e2e/fakes/agent-cli": "agent-cli",
		}},
		{moduleDir: filepath.Join(e2eDir, "upstream", "argo-workflows"), ldflags: "-s -w -X " + argoWorkflowsVersionX + "=" + ArgoWorkflowsVersion,
			argoCopy: true,
			programs: map[string]string{
				argoWorkflowsModule + "/cmd/argoexec":            "argoexec",
				argoWorkflowsModule + "/cmd/workflow-controller": "workflow-controller",
			}},
		{moduleDir: filepath.Join(e2eDir, "upstream", "argo-events"), ldflags: "-s -w", programs: map[string]string{
			"github.com/argoproj/argo-events/cmd": "argo-events",
		}},
	}
}

// Build builds every program into binDir, niced (the machine is shared), logging to log.
func Build(e2eDir, binDir string, log io.Writer) error {
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		return err
	}
	for _, t := range targets(e2eDir) {
		for pkg, name := range t.programs {
			start := time.Now()
			args := []string{"-n", "10", "go", "build", "-ldflags", t.ldflags, "-o", filepath.Join(binDir, name)}
			if t.argoCopy {
				modfile, err := argoCopy(t.moduleDir, binDir)
				if err != nil {
					return err
				}
				args = append(args, "-modfile", modfile)
			}
			args = append(args, pkg)
			cmd := exec.Command("nice", args...)
			cmd.Dir = t.moduleDir
			cmd.Stdout, cmd.Stderr = log, log
			cmd.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false")
			if err := cmd.Run(); err != nil {
				return fmt.Errorf("build %s: %w", name, err)
			}
			fmt.Fprintf(log, "built %s in %s\n", name, time.Since(start).Round(time.Second))
		}
	}
	return nil
}

// argoSymlinks are the symbolic links of the Argo Workflows repository at the tag that a Linux build
// needs (workflow/executor/osspecific/signal_linux.go points at signal_darwin.go).
var argoSymlinks = map[string]string{
	"workflow/executor/osspecific/signal_linux.go": "signal_darwin.go",
}

// argoCopy makes the module source of Argo Workflows buildable as a dependency: argoexec needs a file the
// module zip dropped (argoSymlinks), and `go build -overlay` refuses to add files in the module cache. The
// module (as the go command verified it into the module cache) is copied into the user cache folder
// (never into the repository), the links are made again, and it is built through a copy of our go.mod
// that replaces the module by that folder. The copy also gets an empty ui/dist/app/index.html, which the
// ui package embeds (only Argo's own build makes it): nothing built here imports that package since the
// argo CLI is not built, but the file marks a whole copy, and every clone on the machine shares the copy.
func argoCopy(moduleDir, binDir string) (string, error) {
	dl := exec.Command("go", "mod", "download", argoWorkflowsModule)
	dl.Dir = moduleDir
	if out, err := dl.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go mod download %s: %v: %s", argoWorkflowsModule, err, out)
	}
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", argoWorkflowsModule)
	cmd.Dir = moduleDir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("locate %s: %w", argoWorkflowsModule, err)
	}
	src := strings.TrimSpace(string(out))
	// Kept in the user's cache folder, not in the checkout: the compiled packages in the go build cache
	// are keyed by their folder, so every clone on this machine reuses them.
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = binDir
	}
	dst := filepath.Join(cache, "cdk8s-agent-play-e2e", "argo-workflows-"+ArgoWorkflowsVersion)
	index := filepath.Join(dst, "ui", "dist", "app", "index.html")
	if _, err := os.Stat(index); err != nil {
		_ = os.RemoveAll(dst)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return "", err
		}
		if out, err := exec.Command("cp", "-r", src, dst).CombinedOutput(); err != nil {
			return "", fmt.Errorf("copy %s: %v: %s", src, err, out)
		}
		if out, err := exec.Command("chmod", "-R", "u+w", dst).CombinedOutput(); err != nil {
			return "", fmt.Errorf("chmod: %v: %s", err, out)
		}
		if err := os.MkdirAll(filepath.Dir(index), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(index, []byte("<!-- no UI: built by the e2e harness -->\n"), 0o644); err != nil {
			return "", err
		}
	}
	// Upstream keeps some files as symbolic links, which module zips leave out; made again here.
	for link, target := range argoSymlinks {
		p := filepath.Join(dst, link)
		if _, err := os.Lstat(p); err != nil {
			if err := os.Symlink(target, p); err != nil {
				return "", err
			}
		}
	}
	mod, err := os.ReadFile(filepath.Join(moduleDir, "go.mod"))
	if err != nil {
		return "", err
	}
	sum, err := os.ReadFile(filepath.Join(moduleDir, "go.sum"))
	if err != nil {
		return "", err
	}
	modfile := filepath.Join(binDir, "argo-workflows.mod")
	mod = append(mod, []byte("\nreplace "+argoWorkflowsModule+" => "+dst+"\n")...)
	if err := os.WriteFile(modfile, mod, 0o644); err != nil {
		return "", err
	}
	return modfile, os.WriteFile(strings.TrimSuffix(modfile, ".mod")+".sum", sum, 0o644)
}
