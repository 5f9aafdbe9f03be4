package node

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	remotecommandconsts "k8s.io/apimachinery/pkg/util/remotecommand"
	"k8s.io/cri-streaming/pkg/streaming/remotecommand"
	utilexec "k8s.io/utils/exec"
)

// serve starts the kubelet endpoints the API server proxies to: exec (what `kubectl exec` and the
// Argo controller's `argoexec kill` use) and container logs.
func (n *Node) serve() (*http.Server, error) {
	cert, err := tls.LoadX509KeyPair(n.cfg.ServingCert, n.cfg.ServingKey)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") })
	mux.HandleFunc("/exec/", n.handleExec)
	mux.HandleFunc("/containerLogs/", n.handleLogs)
	srv := &http.Server{
		Addr: fmt.Sprintf("127.0.0.1:%d", n.cfg.Port), Handler: mux,
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}}, ReadHeaderTimeout: 10 * time.Second,
	}
	ln, err := tls.Listen("tcp", srv.Addr, srv.TLSConfig)
	if err != nil {
		return nil, err
	}
	go func() { _ = srv.Serve(ln) }()
	return srv, nil
}

// handleExec serves /exec/{namespace}/{pod}/{container} and /exec/{namespace}/{pod}/{uid}/{container}.
func (n *Node) handleExec(w http.ResponseWriter, req *http.Request) {
	parts := strings.Split(strings.TrimPrefix(req.URL.Path, "/exec/"), "/")
	if len(parts) != 3 && len(parts) != 4 {
		http.Error(w, "want /exec/{namespace}/{pod}/{container}", http.StatusBadRequest)
		return
	}
	ns, pod, ctr := parts[0], parts[1], parts[len(parts)-1]
	opts, err := remotecommand.NewOptions(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	cmd := req.URL.Query()["command"]
	n.logf("exec %s/%s/%s: %s", ns, pod, ctr, strings.Join(cmd, " "))
	remotecommand.ServeExec(w, req, &executor{n: n}, ns+"/"+pod, "", ctr, cmd, opts,
		4*time.Hour, 30*time.Second, remotecommandconsts.SupportedStreamingProtocols)
}

type executor struct{ n *Node }

// ExecInContainer runs cmd in the container (no terminal: this node gives none).
func (e *executor) ExecInContainer(ctx context.Context, name string, _ string, container string, cmd []string, in io.Reader, out, errw io.WriteCloser, tty bool, _ <-chan remotecommand.TerminalSize, _ time.Duration) error {
	ns, pod, _ := strings.Cut(name, "/")
	r, err := e.n.runner(ns, pod)
	if err != nil {
		return err
	}
	ct, err := r.container(container)
	if err != nil {
		return err
	}
	var outW, errW io.Writer = io.Discard, io.Discard
	if out != nil {
		outW = out
	}
	if errw != nil {
		errW = errw
	}
	code, err := ct.exec(ctx, cmd, in, outW, errW)
	if err != nil {
		return err
	}
	if code != 0 {
		return utilexec.CodeExitError{Err: fmt.Errorf("command terminated with exit code %d", code), Code: code}
	}
	return nil
}

func (n *Node) handleLogs(w http.ResponseWriter, req *http.Request) {
	parts := strings.Split(strings.TrimPrefix(req.URL.Path, "/containerLogs/"), "/")
	if len(parts) != 3 {
		http.Error(w, "want /containerLogs/{namespace}/{pod}/{container}", http.StatusBadRequest)
		return
	}
	p, err := n.ContainerLog(parts[0], parts[1], parts[2])
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	f, err := os.Open(p)
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "text/plain")
	_, _ = io.Copy(w, f)
}
