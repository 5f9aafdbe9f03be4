package scenario

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"cdk8s-agent-play/e2e/internal/kube"
)

// revisionAnnotation is what a reapplyTemplates step changes in every WorkflowTemplate's spec: a pod
// annotation (spec.podMetadata), which changes no behaviour and shows on every pod of a Workflow that runs
// the new spec.
const revisionAnnotation = "agents.platform/e2e-revision"

// reapplyTemplates applies every WorkflowTemplate of the namespace again with server-side apply, as a
// new synth synced by ArgoCD would, with its spec changed (the revision annotation set to the step).
func (r *Runner) reapplyTemplates(ctx context.Context, i int) error {
	list, err := r.env.Client.Dynamic.Resource(kube.TemplateResource).Namespace(r.env.Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	objs := make([]*unstructured.Unstructured, 0, len(list.Items))
	for _, t := range list.Items {
		o := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": t.GetAPIVersion(), "kind": t.GetKind(),
			"metadata": map[string]any{"name": t.GetName(), "namespace": t.GetNamespace(), "labels": t.GetLabels(), "annotations": t.GetAnnotations()},
			"spec":     t.Object["spec"],
		}}
		if err := unstructured.SetNestedField(o.Object, "step-"+strconv.Itoa(i), "spec", "podMetadata", "annotations", revisionAnnotation); err != nil {
			return err
		}
		objs = append(objs, o)
	}
	r.reapplied = &reapply{revision: "step-" + strconv.Itoa(i), at: time.Now().Truncate(time.Second)}
	if err := r.env.Client.Apply(ctx, objs, ""); err != nil {
		return fmt.Errorf("apply the WorkflowTemplates again: %w", err)
	}
	r.logf("applied %d WorkflowTemplates again, each with revision %s", len(objs), r.reapplied.revision)
	return nil
}

// reapply is when the WorkflowTemplates were applied again, and with which revision.
type reapply struct {
	revision string
	at       time.Time
}

// podOfWorkflow is what the revision check needs of a pod: its Workflow's creation and its revision.
type podOfWorkflow struct {
	Pod, Workflow string
	Created       time.Time
	Revision      string
}

// revisionDiffers lists every pod that ran a spec other than its Workflow's: Argo stores a Workflow's spec
// at its start (workflow/controller/operator.go, setStoredWfSpec), so a Workflow created before the
// templates were applied again keeps the old one (no revision) and one created after has the new one. When
// no pod of a Workflow created after was seen, that half is untested, which is a difference too.
func revisionDiffers(re reapply, pods []podOfWorkflow) []string {
	var d []string
	later := 0
	for _, p := range pods {
		after := !p.Created.Before(re.at)
		if after {
			later++
		}
		switch {
		case after && p.Revision != re.revision:
			d = append(d, fmt.Sprintf("pod %s of %s (created after the templates were applied again) has revision %q, not %q", p.Pod, p.Workflow, p.Revision, re.revision))
		case !after && p.Revision != "":
			d = append(d, fmt.Sprintf("pod %s of %s (created before the templates were applied again) has revision %q: the running Workflow took the new template", p.Pod, p.Workflow, p.Revision))
		}
	}
	if later == 0 {
		d = append(d, "no pod of a Workflow created after the templates were applied again was seen")
	}
	sort.Strings(d)
	return d
}

// noteRevision keeps what the revision check needs of a pod of a Workflow (created: the Workflows'
// creation by uid), from the moment the templates were applied again; pods of finished helper Workflows are
// deleted soon (podGC), so every look at the cluster records them.
func (r *Runner) noteRevision(p *corev1.Pod, created map[string]time.Time) {
	if r.reapplied == nil {
		return
	}
	for _, ref := range p.OwnerReferences {
		if at, ok := created[string(ref.UID)]; ok && ref.Kind == "Workflow" {
			if r.revisionPods == nil {
				r.revisionPods = map[string]podOfWorkflow{}
			}
			r.revisionPods[p.Name] = podOfWorkflow{Pod: p.Name, Workflow: ref.Name, Created: at, Revision: p.Annotations[revisionAnnotation]}
		}
	}
}

// checkRevisions checks the revision of every pod of a Workflow seen since the templates were applied
// again (revisionDiffers).
func (r *Runner) checkRevisions() []string {
	if r.reapplied == nil {
		return nil
	}
	names := make([]string, 0, len(r.revisionPods))
	for name := range r.revisionPods {
		names = append(names, name)
	}
	sort.Strings(names)
	seen := make([]podOfWorkflow, 0, len(names))
	for _, name := range names {
		seen = append(seen, r.revisionPods[name])
	}
	return revisionDiffers(*r.reapplied, seen)
}
