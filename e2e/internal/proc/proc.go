// Package proc starts the harness's long-running processes (etcd, the API server, the controllers) with
// their output in a log file each, records their process ids so that a later run can end what an
// interrupted run left behind, and stops them: TERM, then KILL after a grace period.
package proc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Process is one started program.
type Process struct {
	Name    string
	cmd     *exec.Cmd
	pidFile string
	done    chan struct{}
	err     error
}

// Start runs bin with args, env added to the harness's own environment, output in logDir/name.log.
// Its process group is its own, so that stopping it reaches its children too.
func Start(name, bin string, args, env []string, logDir, pidDir string) (*Process, error) {
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(pidDir, 0o755); err != nil {
		return nil, err
	}
	log, err := os.OpenFile(filepath.Join(logDir, name+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		log.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &Process{Name: name, cmd: cmd, pidFile: filepath.Join(pidDir, name+".pid"), done: make(chan struct{})}
	_ = os.WriteFile(p.pidFile, []byte(strconv.Itoa(cmd.Process.Pid)), 0o644)
	go func() {
		p.err = cmd.Wait()
		log.Close()
		close(p.done)
	}()
	return p, nil
}

// Exited tells whether the process has ended, and how.
func (p *Process) Exited() (bool, error) {
	select {
	case <-p.done:
		return true, p.err
	default:
		return false, nil
	}
}

// Stop sends TERM to the process group, KILL after grace, and waits for the end.
func (p *Process) Stop(grace time.Duration) {
	pid := p.cmd.Process.Pid
	_ = syscall.Kill(-pid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(grace):
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		<-p.done
	}
	_ = os.Remove(p.pidFile)
}

// KillLeftovers ends the processes an earlier run recorded in pidDir and did not stop, when the
// recorded process still runs one of binDir's programs (a reused process id is left alone).
func KillLeftovers(pidDir string, binDirs ...string) error {
	entries, err := os.ReadDir(pidDir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		path := filepath.Join(pidDir, e.Name())
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err == nil && pid > 1 && runsOneOf(pid, binDirs) {
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		_ = os.Remove(path)
	}
	return nil
}

func runsOneOf(pid int, dirs []string) bool {
	exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	if err != nil {
		return false
	}
	for _, d := range dirs {
		if strings.HasPrefix(exe, d+string(os.PathSeparator)) {
			return true
		}
	}
	return false
}

// CPU is the processor time the process and its waited-for children took (user and system); known once
// it has ended (0 before).
func (p *Process) CPU() time.Duration {
	select {
	case <-p.done:
	default:
		return 0
	}
	if st := p.cmd.ProcessState; st != nil {
		return st.UserTime() + st.SystemTime()
	}
	return 0
}
