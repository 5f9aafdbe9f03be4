// Package ctrinit is a container's first process on the process node (e2e/node): it sets up the
// container's namespaces, mounts and user, then becomes the container's program. It imports nothing of
// Kubernetes, so that its own program (e2e/cmd/container-init) starts in a fraction of the harness's time:
// the node starts one for every container of every pod.
package ctrinit

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// InitArg is the argument that makes the harness binary act as a container's first process.
const InitArg = "container-init"

// Spec is what the node hands the first process of a container.
type Spec struct {
	Mounts   []Mount  `json:"mounts"`
	Netns    string   `json:"netns"`
	Hostname string   `json:"hostname"`
	UID      *int64   `json:"uid,omitempty"`
	GID      *int64   `json:"gid,omitempty"`
	Groups   []int    `json:"groups,omitempty"`
	WorkDir  string   `json:"workDir"`
	Argv     []string `json:"argv"`
	Env      []string `json:"env"`
	Path     string   `json:"path"`
}

// Mount is one volume folder bind-mounted at its path.
type Mount struct {
	Source   string `json:"source"`
	Target   string `json:"target"`
	ReadOnly bool   `json:"readOnly"`
}

// Run runs as the first process of a container's new mount, PID and UTS namespaces (the node
// starts it with those clone flags): it keeps its mounts from reaching the host, mounts a /proc of its
// PID namespace, bind-mounts the pod's volume folders at their paths, gives /tmp a private tmpfs unless
// a volume is mounted there, joins the pod's network namespace, takes the container's user, and then
// becomes the container's program, which so is PID 1 of its namespace: `kill 15 1` run in the
// container (the Argo controller's way to stop a container) reaches it and nothing of the host.
func Run(specFile string) {
	runtime.LockOSThread()
	if err := containerInit(specFile); err != nil {
		fmt.Fprintf(os.Stderr, "container start failed: %v\n", err)
		os.Exit(128)
	}
}

func containerInit(specFile string) error {
	b, err := os.ReadFile(specFile)
	if err != nil {
		return err
	}
	var s Spec
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mount /proc: %w", err)
	}
	// Parents before children: a volume at /a must not hide one at /a/b.
	sort.SliceStable(s.Mounts, func(i, j int) bool { return depth(s.Mounts[i].Target) < depth(s.Mounts[j].Target) })
	tmpMounted := false
	for _, m := range s.Mounts {
		if filepath.Clean(m.Target) == "/tmp" {
			tmpMounted = true
		}
	}
	if !tmpMounted {
		if err := unix.Mount("tmpfs", "/tmp", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
			return fmt.Errorf("mount /tmp: %w", err)
		}
	}
	for _, m := range s.Mounts {
		if err := bindMount(m); err != nil {
			return err
		}
	}
	if s.Hostname != "" {
		_ = unix.Sethostname([]byte(s.Hostname))
	}
	if s.Netns != "" {
		f, err := os.Open(s.Netns)
		if err != nil {
			return err
		}
		if err := unix.Setns(int(f.Fd()), unix.CLONE_NEWNET); err != nil {
			return fmt.Errorf("join network namespace: %w", err)
		}
		f.Close()
	}
	if s.WorkDir != "" {
		if err := os.MkdirAll(s.WorkDir, 0o777); err != nil {
			return err
		}
		if err := os.Chdir(s.WorkDir); err != nil {
			return err
		}
	}
	if s.GID != nil || s.UID != nil {
		if err := syscall.Setgroups(s.Groups); err != nil {
			return fmt.Errorf("setgroups: %w", err)
		}
	}
	if s.GID != nil {
		if err := syscall.Setgid(int(*s.GID)); err != nil {
			return fmt.Errorf("setgid: %w", err)
		}
	}
	if s.UID != nil {
		if err := syscall.Setuid(int(*s.UID)); err != nil {
			return fmt.Errorf("setuid: %w", err)
		}
	}
	if len(s.Argv) == 0 {
		return fmt.Errorf("no command: the container gives none and the image table names no entrypoint")
	}
	os.Setenv("PATH", s.Path)
	prog := s.Argv[0]
	if !strings.Contains(prog, "/") {
		p, err := exec.LookPath(prog)
		if err != nil {
			return fmt.Errorf("%s: executable file not found in $PATH", prog)
		}
		prog = p
	}
	return syscall.Exec(prog, s.Argv, s.Env)
}

func depth(p string) int { return strings.Count(filepath.Clean(p), "/") }

// UnderPrivateTmp tells whether a host path lies in /tmp, which every container sees as a private tmpfs
// (containerInit): a volume folder, a program or a spec file there is hidden from the container, which
// then fails to start. The harness refuses to run from such a folder.
func UnderPrivateTmp(path string) bool {
	clean := filepath.Clean(path)
	if resolved, err := filepath.EvalSymlinks(clean); err == nil {
		clean = resolved
	}
	return clean == "/tmp" || strings.HasPrefix(clean, "/tmp/")
}

func bindMount(m Mount) error {
	st, err := os.Stat(m.Source)
	if err != nil {
		return fmt.Errorf("volume source %s: %w", m.Source, err)
	}
	if st.IsDir() {
		if err := os.MkdirAll(m.Target, 0o755); err != nil {
			return fmt.Errorf("mount point %s: %w", m.Target, err)
		}
	} else {
		if err := os.MkdirAll(filepath.Dir(m.Target), 0o755); err != nil {
			return err
		}
		if _, err := os.Stat(m.Target); err != nil {
			f, err := os.OpenFile(m.Target, os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				return fmt.Errorf("mount point %s: %w", m.Target, err)
			}
			f.Close()
		}
	}
	if err := unix.Mount(m.Source, m.Target, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("bind %s at %s: %w", m.Source, m.Target, err)
	}
	if m.ReadOnly {
		if err := unix.Mount("", m.Target, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("read-only %s: %w", m.Target, err)
		}
	}
	return nil
}
