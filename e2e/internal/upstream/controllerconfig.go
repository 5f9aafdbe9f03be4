package upstream

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"cdk8s-agent-play/e2e/internal/kube"
)

// ControllerConfig is what a scenario may ask of the workflow controller's configuration (the
// workflow-controller-configmap, config/config.go of argo-workflows) beside what the harness always sets.
// It is controller-wide: every namespace's Workflows run under it.
type ControllerConfig struct {
	// TemplateReferencing is `workflowRestrictions.templateReferencing`: "" (upstream's default: none),
	// Strict (a Workflow must reference a WorkflowTemplate, its spec is stored from it once) or Secure (as
	// Strict, and a running Workflow whose template changed ends in Error): config/config.go,
	// WorkflowRestrictions, and workflow/controller/operator.go, setExecWorkflow and setStoredWfSpec.
	TemplateReferencing string `json:"templateReferencing,omitempty"`
	// NamespaceParallelism is `namespaceParallelism`: how many Workflows of a namespace run at once (0: no
	// limit). The controller makes the others Pending until one completes (workflow/sync/multi_throttler.go,
	// and processNextItem in workflow/controller/controller.go).
	NamespaceParallelism int `json:"namespaceParallelism,omitempty"`
}

// Validate refuses a value the controller does not know (it would start with it and ignore it).
func (c ControllerConfig) Validate() error {
	switch c.TemplateReferencing {
	case "", "Strict", "Secure":
	default:
		return fmt.Errorf("controller.templateReferencing: %q is not Strict or Secure", c.TemplateReferencing)
	}
	if c.NamespaceParallelism < 0 {
		return fmt.Errorf("controller.namespaceParallelism: %d is negative; give 0 (no limit) or more", c.NamespaceParallelism)
	}
	return nil
}

// String names the configuration in the harness's log and table.
func (c ControllerConfig) String() string {
	var parts []string
	if c.TemplateReferencing != "" {
		parts = append(parts, "templateReferencing: "+c.TemplateReferencing)
	}
	if c.NamespaceParallelism > 0 {
		parts = append(parts, "namespaceParallelism: "+strconv.Itoa(c.NamespaceParallelism))
	}
	if len(parts) == 0 {
		return "default"
	}
	return strings.Join(parts, ", ")
}

// apply writes the configuration into the workflow-controller-configmap, one data key per top-level
// field as upstream's own configmap example does (the controller joins the keys into one YAML document:
// config/controller.go, parseConfigMap).
func (c ControllerConfig) apply(cm *unstructured.Unstructured) error {
	if c.TemplateReferencing != "" {
		if err := setNewKey(cm, "templateReferencing", "workflowRestrictions", "templateReferencing: "+c.TemplateReferencing+"\n"); err != nil {
			return err
		}
	}
	if c.NamespaceParallelism > 0 {
		if err := setNewKey(cm, "namespaceParallelism", "namespaceParallelism", strconv.Itoa(c.NamespaceParallelism)); err != nil {
			return err
		}
	}
	return nil
}

// setNewKey sets a data key of the configmap that upstream's leaves unset, for the scenario's setting.
func setNewKey(cm *unstructured.Unstructured, setting, key, value string) error {
	if _, found, _ := unstructured.NestedString(cm.Object, "data", key); found {
		return fmt.Errorf("the upstream workflow-controller-configmap sets %s already: take %s off the entry's controller in e2e/scenarios.yaml (upstream's value then applies)", key, setting)
	}
	return unstructured.SetNestedField(cm.Object, value, "data", key)
}

// RestartWorkflowController applies the workflow-controller-configmap with p.Controller and restarts the
// controller as an operator does after changing it (its pods deleted, the Deployment makes a new one),
// so that the controller starts with the configuration rather than take it in while running; it returns
// once the new controller holds its leader lease.
func RestartWorkflowController(ctx context.Context, c *kube.Client, p Paths) error {
	cfg := p.Controller
	if err := cfg.Validate(); err != nil {
		return err
	}
	objs, err := objects(p, "argo-workflows", argoWorkflowsModule, func(o *unstructured.Unstructured) (bool, error) {
		if o.GetKind() != "ConfigMap" || o.GetName() != "workflow-controller-configmap" {
			return false, nil
		}
		return editArgoWorkflows(o, cfg)
	})
	if err != nil {
		return err
	}
	if len(objs) != 1 {
		return fmt.Errorf("argo workflows' cluster-install has %d workflow-controller-configmap(s)", len(objs))
	}
	// Server-side apply of the whole ConfigMap: the data key another configuration set goes with it.
	if err := c.Apply(ctx, objs, controllerNamespace); err != nil {
		return err
	}
	// The old controller gets a grace period of 1 s and its leader lease is deleted once its pod is gone
	// (the node deletes the pod after its processes ended): the upstream controller neither ends at TERM
	// within its 30 s grace period nor gives its lease up, so a restart with the defaults took those 30 s and
	// then the lease's 15 s (LEADER_ELECTION_LEASE_DURATION) before the new controller led (53 s measured).
	// Only timing: no scenario runs while the controller restarts, and never are two controllers running.
	pods, err := c.Kube.CoreV1().Pods(controllerNamespace).List(ctx, metav1.ListOptions{LabelSelector: "app=workflow-controller"})
	if err != nil {
		return err
	}
	old := map[string]bool{}
	grace := int64(1)
	for _, pod := range pods.Items {
		old[pod.Name] = true
		if err := c.Kube.CoreV1().Pods(controllerNamespace).Delete(ctx, pod.Name, metav1.DeleteOptions{GracePeriodSeconds: &grace}); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	if err := kube.Poll(ctx, time.Minute, func() (bool, error) {
		for name := range old {
			if _, err := c.Kube.CoreV1().Pods(controllerNamespace).Get(ctx, name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				return false, nil
			}
		}
		return true, nil
	}); err != nil {
		return fmt.Errorf("the old workflow controller's pods did not go: %w", err)
	}
	if err := c.Kube.CoordinationV1().Leases(controllerNamespace).Delete(ctx, "workflow-controller", metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	return kube.Poll(ctx, 3*time.Minute, func() (bool, error) {
		lease, err := c.Kube.CoordinationV1().Leases(controllerNamespace).Get(ctx, "workflow-controller", metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		holder := ""
		if lease.Spec.HolderIdentity != nil {
			holder = *lease.Spec.HolderIdentity
		}
		if holder == "" || old[holder] {
			return false, nil
		}
		pod, err := c.Kube.CoreV1().Pods(controllerNamespace).Get(ctx, holder, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		return pod.Status.Phase == corev1.PodRunning && pod.DeletionTimestamp == nil, nil
	})
}

// controllerNamespace is where upstream's cluster-install runs the workflow controller.
const controllerNamespace = "argo"
