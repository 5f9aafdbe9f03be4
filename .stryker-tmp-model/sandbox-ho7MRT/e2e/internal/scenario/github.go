package scenario

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"cdk8s-agent-play/e2e/internal/kube"
	"cdk8s-agent-play/e2e/internal/platform"
)

// webhook is where the namespace's GitHub EventSource listens.
type webhook struct {
	pod, endpoint string
	port          int
}

// githubWebhook finds the GitHub EventSource's receiver: its first github entry's port and endpoint,
// and the pod of its Deployment.
func (r *Runner) githubWebhook(ctx context.Context) (*webhook, error) {
	list, err := r.env.Client.Dynamic.Resource(kube.SourceResource).Namespace(r.env.Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	for _, es := range list.Items {
		gh, _, _ := unstructured.NestedMap(es.Object, "spec", "github")
		for _, v := range gh {
			entry, _ := v.(map[string]any)
			port, _, _ := unstructured.NestedString(entry, "webhook", "port")
			endpoint, _, _ := unstructured.NestedString(entry, "webhook", "endpoint")
			p, err := strconv.Atoi(port)
			if err != nil {
				continue
			}
			pods, err := r.env.Client.Kube.CoreV1().Pods(r.env.Namespace).List(ctx, metav1.ListOptions{LabelSelector: "eventsource-name=" + es.GetName()})
			if err != nil {
				return nil, err
			}
			for _, pod := range pods.Items {
				if pod.Status.Phase == "Running" && pod.DeletionTimestamp == nil {
					return &webhook{pod: pod.Name, endpoint: endpoint, port: p}, nil
				}
			}
			return nil, fmt.Errorf("the pod of EventSource %s is not running", es.GetName())
		}
	}
	return nil, fmt.Errorf("no GitHub EventSource in %s", r.env.Namespace)
}

// Sign gives GitHub's X-Hub-Signature-256 header value of a body.
func Sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// deliver posts a webhook delivery, signed as GitHub signs it, to the real EventSource; it retries
// while the receiver is not up, and wants 200.
func (r *Runner) deliver(ctx context.Context, event, payloadFile, delivery string) error {
	body, err := os.ReadFile(payloadFile)
	if err != nil {
		return err
	}
	body, retimed, err := r.clock.retime(body)
	if err != nil {
		return fmt.Errorf("%s: %w", payloadFile, err)
	}
	if retimed {
		r.logf("moved the payload's times from the simulator's clock to the real one")
	}
	var lastErr error
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		status, text, err := r.post(ctx, event, delivery, body)
		if err == nil && status == http.StatusOK {
			r.logf("delivered %s %s: %d %s", event, delivery, status, text)
			return nil
		}
		if err == nil {
			lastErr = fmt.Errorf("EventSource answered %d: %s", status, text)
		} else {
			lastErr = err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return fmt.Errorf("deliver %s: %w", event, lastErr)
}

func (r *Runner) post(ctx context.Context, event, delivery string, body []byte) (int, string, error) {
	wh, err := r.githubWebhook(ctx)
	if err != nil {
		return 0, "", err
	}
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return r.env.Node.DialPod(ctx, r.env.Namespace, wh.pod, wh.port)
		},
	}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, fmt.Sprintf("http://%s:%d%s", wh.pod, wh.port, wh.endpoint), bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "GitHub-Hookshot/e2e")
	req.Header.Set("X-GitHub-Event", event)
	req.Header.Set("X-GitHub-Delivery", delivery)
	req.Header.Set("X-Hub-Signature-256", Sign(platform.WebhookSecret, body))
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	return resp.StatusCode, string(b), nil
}
