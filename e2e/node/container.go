package node

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"cdk8s-agent-play/e2e/node/ctrinit"
)

const basePath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// container is one run of a container: its first process on the host, and what it was started with.
type container struct {
	spec    *corev1.Container
	init    bool
	cmd     *exec.Cmd
	env     []string
	path    string
	uid     *int64
	gid     *int64
	started metav1.Time
	exited  chan struct{}
	code    int32
	reason  string
}

// userOf gives the container's user and groups: its securityContext over the pod's; groups add
// fsGroup and supplementalGroups as the runtime does.
func userOf(pod *corev1.Pod, c *corev1.Container) (uid, gid *int64, groups []int) {
	if psc := pod.Spec.SecurityContext; psc != nil {
		uid, gid = psc.RunAsUser, psc.RunAsGroup
		if psc.FSGroup != nil {
			groups = append(groups, int(*psc.FSGroup))
		}
		for _, g := range psc.SupplementalGroups {
			groups = append(groups, int(g))
		}
	}
	if sc := c.SecurityContext; sc != nil {
		if sc.RunAsUser != nil {
			uid = sc.RunAsUser
		}
		if sc.RunAsGroup != nil {
			gid = sc.RunAsGroup
		}
	}
	if uid != nil && gid == nil {
		gid = uid
	}
	return uid, gid, groups
}

// startContainer starts one container of the runner's pod.
func (r *podRunner) startContainer(ctx context.Context, c *corev1.Container, isInit bool, attempt int) (*container, error) {
	im, err := r.n.cfg.Images.Lookup(c.Image)
	if err != nil {
		return nil, &waitingError{reason: "ErrImagePull", err: err}
	}
	env, envMap, err := containerEnv(ctx, r.n.kc, r.pod, c, r.podIP)
	if err != nil {
		return nil, &waitingError{reason: "CreateContainerConfigError", err: err}
	}
	binDir, err := im.binDir(r.n.cfg.RunDir)
	if err != nil {
		return nil, err
	}
	path := binDir + ":" + basePath
	uid, gid, groups := userOf(r.pod, c)
	// A runtime gives HOME from the image's passwd file; these images have none: / for any user but root.
	home := "/"
	if uid == nil || *uid == 0 {
		home = "/root"
	}
	// An image's environment, then the pod's (which wins), as a runtime merges them.
	base := []string{"PATH=" + path, "HOSTNAME=" + r.pod.Name, "HOME=" + home}
	for k, v := range im.Env {
		base = append(base, k+"="+v)
	}
	env = lastWins(append(base, env...))
	mounts, err := r.mountsFor(c, envMap)
	if err != nil {
		return nil, &waitingError{reason: "CreateContainerConfigError", err: err}
	}
	spec := ctrinit.Spec{
		Mounts: mounts, Netns: r.net.path, Hostname: r.pod.Name, UID: uid, GID: gid, Groups: groups,
		WorkDir: c.WorkingDir, Argv: im.argv(expandArgs(c.Command, envMap), expandArgs(c.Args, envMap)), Env: env, Path: path,
	}
	ctrDir := filepath.Join(r.dir, "containers", c.Name)
	if err := os.MkdirAll(ctrDir, 0o755); err != nil {
		return nil, err
	}
	specFile := filepath.Join(ctrDir, fmt.Sprintf("spec-%d.json", attempt))
	b, _ := json.MarshalIndent(spec, "", "  ")
	if err := os.WriteFile(specFile, b, 0o600); err != nil {
		return nil, err
	}
	log, err := os.OpenFile(r.logFile(c.Name), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "--- %s start %d: %s\n", time.Now().Format(time.RFC3339), attempt, strings.Join(spec.Argv, " "))
	cmd := exec.Command(r.n.cfg.Self, ctrinit.InitArg, specFile)
	if r.n.cfg.InitProgram != "" {
		cmd = exec.Command(r.n.cfg.InitProgram, specFile)
	}
	cmd.Stdout, cmd.Stderr = log, log
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags: syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWUTS,
		// A container never outlives the harness.
		Pdeathsig: syscall.SIGKILL,
	}
	if err := cmd.Start(); err != nil {
		log.Close()
		return nil, err
	}
	ct := &container{spec: c, init: isInit, cmd: cmd, env: env, path: path, uid: uid, gid: gid, started: metav1.Now(), exited: make(chan struct{})}
	ns := r.pod.Namespace
	go func() {
		err := cmd.Wait()
		log.Close()
		r.n.addCPU(ns, cmd.ProcessState)
		ct.code, ct.reason = exitOf(cmd, err)
		close(ct.exited)
	}()
	return ct, nil
}

// exitOf gives a container's exit code as a runtime reports it (128+N for signal N) and the reason.
func exitOf(cmd *exec.Cmd, err error) (int32, string) {
	st, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok {
		return 128, "Error"
	}
	var code int32
	switch {
	case st.Signaled():
		code = 128 + int32(st.Signal())
	default:
		code = int32(st.ExitStatus())
	}
	switch {
	case code == 0:
		return 0, "Completed"
	case code == 128 && err != nil:
		return code, "StartError"
	case code == 137:
		return code, "Error"
	}
	return code, "Error"
}

// mountsFor gives the container's volume mounts as host folders (subPath and subPathExpr resolved).
func (r *podRunner) mountsFor(c *corev1.Container, env map[string]string) ([]ctrinit.Mount, error) {
	var out []ctrinit.Mount
	for _, vm := range c.VolumeMounts {
		dir, ok := r.volumes[vm.Name]
		if !ok {
			return nil, fmt.Errorf("volumeMount %s: no such volume", vm.Name)
		}
		sub := vm.SubPath
		if vm.SubPathExpr != "" {
			sub = expandArgs([]string{vm.SubPathExpr}, env)[0]
		}
		src := dir
		if sub != "" {
			if strings.Contains(sub, "..") {
				return nil, fmt.Errorf("volumeMount %s: subPath %q leaves the volume", vm.Name, sub)
			}
			src = filepath.Join(dir, sub)
			if _, err := os.Stat(src); errors.Is(err, os.ErrNotExist) {
				if err := mkdirAll(src); err != nil {
					return nil, err
				}
			}
		}
		out = append(out, ctrinit.Mount{Source: src, Target: vm.MountPath, ReadOnly: vm.ReadOnly})
	}
	return out, nil
}

// signal sends sig to the container's first process (the program, PID 1 of its namespace).
func (ct *container) signal(sig syscall.Signal) {
	if ct.cmd.Process != nil {
		_ = ct.cmd.Process.Signal(sig)
	}
}

func (ct *container) running() bool {
	select {
	case <-ct.exited:
		return false
	default:
		return true
	}
}

// exec runs cmd inside the container (its mount, PID and network namespaces, its user and
// environment), as the kubelet's exec endpoint does.
func (ct *container) exec(ctx context.Context, argv []string, in io.Reader, out, errw io.Writer) (int, error) {
	if !ct.running() {
		return -1, fmt.Errorf("container %s is not running", ct.spec.Name)
	}
	args := []string{"--target", strconv.Itoa(ct.cmd.Process.Pid), "--mount", "--pid", "--net", "--uts"}
	if ct.gid != nil {
		args = append(args, "--setgid", strconv.FormatInt(*ct.gid, 10))
	}
	if ct.uid != nil {
		args = append(args, "--setuid", strconv.FormatInt(*ct.uid, 10))
	}
	if ct.spec.WorkingDir != "" {
		args = append(args, "--wd="+ct.spec.WorkingDir)
	}
	args = append(args, "--")
	args = append(args, argv...)
	cmd := exec.CommandContext(ctx, "nsenter", args...)
	cmd.Env = ct.env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = in, out, errw
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), nil
	}
	if err != nil {
		return -1, err
	}
	return 0, nil
}

// waitingError keeps a container waiting with a reason (an image with no stand-in, a missing key).
type waitingError struct {
	reason string
	err    error
}

func (e *waitingError) Error() string { return e.reason + ": " + e.err.Error() }
