// Package faults makes the API server refuse a Sensor's trigger, as a scenario's `triggerFailures: N`
// asks ("the first N attempts of every fired trigger fail"): a validating admission webhook, served by
// the harness, refuses the first N Workflow creations of each Sensor trigger while it is armed. A trigger
// is told apart by who creates (the Sensor's service account) and the Workflow's generateName.
package faults

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	admissionregv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

const (
	addr        = "127.0.0.1:10260"
	webhookName = "e2e-trigger-faults"
)

// Injector is the webhook.
type Injector struct {
	mu     sync.Mutex
	users  map[string]bool
	n      int
	counts map[string]int
	// Refused counts the refusals since the last Arm.
	Refused int
	srv     *http.Server
}

// Start serves the webhook and registers it for Workflow creations in namespace ns.
func Start(ctx context.Context, kc kubernetes.Interface, certFile, keyFile, caFile, ns string) (*Injector, error) {
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, err
	}
	ca, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	in := &Injector{counts: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/validate", in.handle)
	in.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}}}
	ln, err := tls.Listen("tcp", addr, in.srv.TLSConfig)
	if err != nil {
		return nil, err
	}
	go func() { _ = in.srv.Serve(ln) }()
	url := "https://" + addr + "/validate"
	ignore := admissionregv1.Ignore
	none := admissionregv1.SideEffectClassNone
	timeout := int32(5)
	cfg := &admissionregv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: webhookName},
		Webhooks: []admissionregv1.ValidatingWebhook{{
			Name: "trigger-faults.e2e.local", ClientConfig: admissionregv1.WebhookClientConfig{URL: &url, CABundle: ca},
			Rules: []admissionregv1.RuleWithOperations{{
				Operations: []admissionregv1.OperationType{admissionregv1.Create},
				Rule:       admissionregv1.Rule{APIGroups: []string{"argoproj.io"}, APIVersions: []string{"*"}, Resources: []string{"workflows"}},
			}},
			NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": ns}},
			FailurePolicy:     &ignore, SideEffects: &none, TimeoutSeconds: &timeout,
			AdmissionReviewVersions: []string{"v1"},
		}},
	}
	_ = kc.AdmissionregistrationV1().ValidatingWebhookConfigurations().Delete(ctx, webhookName, metav1.DeleteOptions{})
	if _, err := kc.AdmissionregistrationV1().ValidatingWebhookConfigurations().Create(ctx, cfg, metav1.CreateOptions{}); err != nil {
		_ = in.srv.Close()
		return nil, err
	}
	return in, nil
}

// Arm refuses the first n creations of each trigger of the given users (service-account user names).
func (in *Injector) Arm(n int, users []string) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.n, in.counts, in.Refused = n, map[string]int{}, 0
	in.users = map[string]bool{}
	for _, u := range users {
		in.users[u] = true
	}
}

// Disarm lets everything through again.
func (in *Injector) Disarm() { in.Arm(0, nil) }

// Close stops serving (the registration goes with the cluster).
func (in *Injector) Close() { _ = in.srv.Close() }

func (in *Injector) handle(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(io.LimitReader(req.Body, 8<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var review admissionv1.AdmissionReview
	if err := json.Unmarshal(body, &review); err != nil || review.Request == nil {
		http.Error(w, "not an AdmissionReview", http.StatusBadRequest)
		return
	}
	resp := &admissionv1.AdmissionResponse{UID: review.Request.UID, Allowed: true}
	var obj struct {
		Metadata metav1.ObjectMeta `json:"metadata"`
	}
	_ = json.Unmarshal(review.Request.Object.Raw, &obj)
	// The API server has named the object by now: a trigger is its generateName when it has one.
	name := obj.Metadata.GenerateName
	if name == "" {
		name = obj.Metadata.Name
	}
	key := review.Request.UserInfo.Username + "|" + name
	in.mu.Lock()
	if in.users[review.Request.UserInfo.Username] {
		in.counts[key]++
		if c := in.counts[key]; c <= in.n {
			in.Refused++
			resp.Allowed = false
			resp.Result = &metav1.Status{Code: http.StatusServiceUnavailable, Reason: metav1.StatusReasonServiceUnavailable,
				Message: fmt.Sprintf("e2e: trigger failure %d of %d injected for %s", c, in.n, key)}
		}
	}
	in.mu.Unlock()
	review.Response = resp
	review.Request = nil
	out, _ := json.Marshal(review)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}
