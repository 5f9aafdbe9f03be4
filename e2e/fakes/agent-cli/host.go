package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"

	"cdk8s-agent-play/e2e/internal/fakegithub"
)

// harnessClient reaches the harness at the fake GitHub (GIT_SERVER) with the step's installation token
// (GH_TOKEN), which names the namespace. TLS is checked against the CA the image's environment names
// (SSL_CERT_FILE, e2e/images.yaml).
type harnessClient struct {
	base, token string
	http        *http.Client
}

func newHarnessClient(env func(string) string) *harnessClient {
	return &harnessClient{base: env("GIT_SERVER"), token: env("GH_TOKEN"), http: &http.Client{}}
}

func (c *harnessClient) post(path string, body, out any) error {
	b, _ := json.Marshal(body)
	req, err := http.NewRequest(http.MethodPost, c.base+"/_e2e/agents/"+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "token "+c.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	text, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s: %s", path, resp.Status, strings.TrimSpace(string(text)))
	}
	return json.Unmarshal(text, out)
}

func (c *harnessClient) Start(run fakegithub.AgentRun) (string, string, error) {
	var out struct {
		Namespace string `json:"namespace"`
		PodUID    string `json:"podUID"`
	}
	err := c.post("start", run, &out)
	return out.Namespace, out.PodUID, err
}

func (c *harnessClient) Wait(podUID string, probe fakegithub.Probe) (int, error) {
	var out struct {
		Exit int `json:"exit"`
	}
	err := c.post("wait", map[string]any{"podUID": podUID, "probe": probe}, &out)
	return out.Exit, err
}

// tokenPath is where the kubelet mounts a pod's service-account token.
const tokenPath = "/var/run/secrets/kubernetes.io/serviceaccount/token"

// hostWorker works in the current folder with the host's git, as the CLI's image would.
type hostWorker struct{ env func(string) string }

// workFile is the file each run adds a line to, so that every run has a commit to push.
const workFile = "e2e-agent-work.md"

// Work commits a line to workFile on the checked-out branch and pushes it (git's credential helper, set
// by the direct step, gives the installation token); it gives the commit.
func (w hostWorker) Work(message string) (string, error) {
	f, err := os.OpenFile(workFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return "", err
	}
	_, err = fmt.Fprintf(f, "- %s\n", message)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	for _, args := range [][]string{{"add", workFile}, {"commit", "--quiet", "-m", message}, {"push", "--quiet", "origin", "HEAD"}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			return "", fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(string(out)))
		}
	}
	out, err := exec.Command("git", "rev-parse", "HEAD").Output()
	return strings.TrimSpace(string(out)), err
}

// Probe looks for a service-account token in the container and tries, with it if there is one, to patch
// the play through the API server (the service variables the kubelet gives every container): a prompt-
// injected CLI on a platform that mounted a token could move its own play.
func (w hostWorker) Probe(namespace, workflow string) (bool, int) {
	token, err := os.ReadFile(tokenPath)
	hasToken := err == nil
	host, port := w.env("KUBERNETES_SERVICE_HOST"), w.env("KUBERNETES_SERVICE_PORT")
	if host == "" || namespace == "" || workflow == "" {
		return hasToken, 0
	}
	url := fmt.Sprintf("https://%s/apis/argoproj.io/v1alpha1/namespaces/%s/workflows/%s", net.JoinHostPort(host, port), namespace, workflow)
	req, err := http.NewRequest(http.MethodPatch, url, strings.NewReader(`{"metadata":{"labels":{"e2e-agent-cli":"was-here"}}}`))
	if err != nil {
		return hasToken, 0
	}
	req.Header.Set("Content-Type", "application/merge-patch+json")
	if hasToken {
		req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(token)))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return hasToken, 0
	}
	defer resp.Body.Close()
	return hasToken, resp.StatusCode
}
