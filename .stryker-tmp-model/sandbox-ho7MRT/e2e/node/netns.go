package node

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// Each pod has its own network namespace with only a loopback interface, so that pods listening on the
// same port (every Argo Events pod serves metrics on 7777) do not collide. What a pod must reach on this
// machine (the API server, the NATS server of the event bus) is forwarded: the node listens on the same
// loopback address and port inside the pod's namespace and connects to the host's. Nothing leaves
// loopback.

const netnsPrefix = "e2e-pod-"

type podNet struct {
	name      string
	path      string
	listeners []net.Listener
	wg        sync.WaitGroup
}

func newPodNet(id string, hostServices []string) (*podNet, error) {
	pn := &podNet{name: netnsPrefix + id, path: filepath.Join("/run/netns", netnsPrefix+id)}
	_ = exec.Command("ip", "netns", "del", pn.name).Run()
	if out, err := exec.Command("ip", "netns", "add", pn.name).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("ip netns add: %v: %s", err, out)
	}
	if out, err := exec.Command("ip", "-n", pn.name, "link", "set", "lo", "up").CombinedOutput(); err != nil {
		pn.close()
		return nil, fmt.Errorf("ip link set lo up: %v: %s", err, out)
	}
	for _, addr := range hostServices {
		l, err := pn.listen(addr)
		if err != nil {
			pn.close()
			return nil, err
		}
		pn.listeners = append(pn.listeners, l)
		pn.wg.Add(1)
		go pn.forward(l, addr)
	}
	return pn, nil
}

// inNetns runs fn on an OS thread that has entered the pod's namespace; sockets made there stay in it.
func inNetns(path string, fn func() error) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		// The thread is left locked (and so ends with this goroutine) if it could not go back.
		orig, err := os.Open("/proc/thread-self/ns/net")
		if err != nil {
			errc <- err
			return
		}
		defer orig.Close()
		target, err := os.Open(path)
		if err != nil {
			errc <- err
			return
		}
		defer target.Close()
		if err := unix.Setns(int(target.Fd()), unix.CLONE_NEWNET); err != nil {
			errc <- fmt.Errorf("setns %s: %w", path, err)
			return
		}
		ferr := fn()
		if err := unix.Setns(int(orig.Fd()), unix.CLONE_NEWNET); err != nil {
			errc <- fmt.Errorf("setns back: %w", err)
			return
		}
		runtime.UnlockOSThread()
		errc <- ferr
	}()
	return <-errc
}

func (pn *podNet) listen(addr string) (net.Listener, error) {
	var l net.Listener
	err := inNetns(pn.path, func() error {
		var err error
		l, err = net.Listen("tcp", addr)
		return err
	})
	return l, err
}

// forward accepts in the pod's namespace and connects to the same address on the host.
func (pn *podNet) forward(l net.Listener, addr string) {
	defer pn.wg.Done()
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			h, err := net.Dial("tcp", addr)
			if err != nil {
				return
			}
			defer h.Close()
			pipe(c, h)
		}()
	}
}

func pipe(a, b net.Conn) {
	done := make(chan struct{}, 2)
	cp := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		if tc, ok := dst.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
		done <- struct{}{}
	}
	go cp(a, b)
	go cp(b, a)
	<-done
	<-done
}

// dial connects to addr inside the pod's namespace (how the harness reaches a pod's port).
func (pn *podNet) dial(ctx context.Context, addr string) (net.Conn, error) {
	var c net.Conn
	err := inNetns(pn.path, func() error {
		var err error
		var d net.Dialer
		c, err = d.DialContext(ctx, "tcp", addr)
		return err
	})
	return c, err
}

func (pn *podNet) close() {
	for _, l := range pn.listeners {
		_ = l.Close()
	}
	pn.wg.Wait()
	_ = exec.Command("ip", "netns", "del", pn.name).Run()
}

// CleanNetns deletes the namespaces an earlier run left.
func CleanNetns() {
	out, err := exec.Command("ip", "netns", "list").Output()
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) > 0 && strings.HasPrefix(f[0], netnsPrefix) {
			_ = exec.Command("ip", "netns", "del", f[0]).Run()
		}
	}
}
