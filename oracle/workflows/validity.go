package main

import (
	"context"
	"fmt"

	wfv1 "github.com/argoproj/argo-workflows/v4/pkg/apis/workflow/v1alpha1"
	"github.com/argoproj/argo-workflows/v4/util/logging"
	"github.com/argoproj/argo-workflows/v4/workflow/templateresolution"
	"github.com/argoproj/argo-workflows/v4/workflow/validate"

	"cdk8s-agent-play/oracle/shared"
)

// workflowKinds are the kinds this module decides with Argo Workflows' validation.
var workflowKinds = map[string]bool{"Workflow": true, "WorkflowTemplate": true, "ClusterWorkflowTemplate": true, "CronWorkflow": true}

// templates are the WorkflowTemplates of a group by namespace, and its ClusterWorkflowTemplates: what
// `argo lint` resolves references with (pkg/apiclient/offline-client.go of argo-workflows).
type templates struct {
	namespaced map[string]map[string]*wfv1.WorkflowTemplate
	cluster    map[string]*wfv1.ClusterWorkflowTemplate
}

type namespaceGetter struct {
	namespace string
	found     map[string]*wfv1.WorkflowTemplate
}

func (g namespaceGetter) Get(_ context.Context, name string) (*wfv1.WorkflowTemplate, error) {
	if template, ok := g.found[name]; ok {
		return template, nil
	}
	return nil, fmt.Errorf("couldn't find workflow template %q in namespace %q", name, g.namespace)
}

type clusterGetter map[string]*wfv1.ClusterWorkflowTemplate

func (g clusterGetter) Get(_ context.Context, name string) (*wfv1.ClusterWorkflowTemplate, error) {
	if template, ok := g[name]; ok {
		return template, nil
	}
	return nil, fmt.Errorf("couldn't find cluster workflow template %q", name)
}

func groupTemplates(docs []shared.Document) templates {
	found := templates{namespaced: map[string]map[string]*wfv1.WorkflowTemplate{}, cluster: map[string]*wfv1.ClusterWorkflowTemplate{}}
	for _, doc := range docs {
		if doc.Type.APIVersion != "argoproj.io/v1alpha1" {
			continue
		}
		switch doc.Type.Kind {
		case "WorkflowTemplate":
			template := &wfv1.WorkflowTemplate{}
			if _, err := shared.DecodeAsController(doc, template); err == "" {
				if found.namespaced[template.Namespace] == nil {
					found.namespaced[template.Namespace] = map[string]*wfv1.WorkflowTemplate{}
				}
				found.namespaced[template.Namespace][template.Name] = template
			}
		case "ClusterWorkflowTemplate":
			template := &wfv1.ClusterWorkflowTemplate{}
			if _, err := shared.DecodeAsController(doc, template); err == "" {
				found.cluster[template.Name] = template
			}
		}
	}
	return found
}

func (t templates) getters(namespace string) (namespaceGetter, clusterGetter) {
	return namespaceGetter{namespace: namespace, found: t.namespaced[namespace]}, clusterGetter(t.cluster)
}

// validateContext is a context with the logger Argo Workflows' validation requires, writing nowhere.
func validateContext() context.Context {
	return logging.WithLogger(context.Background(), logging.NewSlogLoggerCustom(logging.Error, logging.JSON, discard{}))
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// workflowVerdict decodes an Argo Workflows object as the controller does and validates it twice: as
// `argo lint` does (ValidateOpts{Lint: true}) and as the server does on create (ValidateOpts{}).
func workflowVerdict(result *shared.ObjectAnswer, doc shared.Document, found templates) {
	switch doc.Type.Kind {
	case "Workflow":
		decideKind(result, doc, found, &wfv1.Workflow{}, validate.ValidateWorkflow,
			func(wf *wfv1.Workflow) *wfv1.WorkflowSpec { return &wf.Spec })
	case "WorkflowTemplate":
		decideKind(result, doc, found, &wfv1.WorkflowTemplate{}, validate.ValidateWorkflowTemplate,
			func(template *wfv1.WorkflowTemplate) *wfv1.WorkflowSpec { return &template.Spec })
	case "ClusterWorkflowTemplate":
		decideKind(result, doc, found, &wfv1.ClusterWorkflowTemplate{}, validate.ValidateClusterWorkflowTemplate,
			func(template *wfv1.ClusterWorkflowTemplate) *wfv1.WorkflowSpec { return &template.Spec })
	case "CronWorkflow":
		// A CronWorkflow has one validation, with no lint or create mode: both verdicts are its answer.
		validateCron := func(ctx context.Context, wfGetter templateresolution.WorkflowTemplateNamespacedGetter,
			cwfGetter templateresolution.ClusterWorkflowTemplateGetter, cron *wfv1.CronWorkflow, defaults *wfv1.Workflow,
			_ validate.ValidateOpts) error {
			return validate.ValidateCronWorkflow(ctx, wfGetter, cwfGetter, cron, defaults)
		}
		decideKind(result, doc, found, &wfv1.CronWorkflow{}, validateCron,
			func(cron *wfv1.CronWorkflow) *wfv1.WorkflowSpec { return &cron.Spec.WorkflowSpec })
	}
}

// argoObject is what every kind decided here is: a Kubernetes object Argo's validation takes a copy of.
type argoObject[T any] interface {
	*T
	GetNamespace() string
	DeepCopy() *T
}

// validation is the shape of Argo Workflows' validate functions for one kind (workflow/validate/validate.go).
type validation[T any] func(ctx context.Context, wfGetter templateresolution.WorkflowTemplateNamespacedGetter,
	cwfGetter templateresolution.ClusterWorkflowTemplateGetter, object *T, defaults *wfv1.Workflow,
	opts validate.ValidateOpts) error

// decideKind decodes doc into object, validates a copy of it as lint and as create with the templates of
// its namespace, and lists the pods its spec asks for. Each validation gets its own copy, since Argo's
// validation fills in defaults on the object it is given.
func decideKind[T any, P argoObject[T]](result *shared.ObjectAnswer, doc shared.Document, found templates,
	object P, check validation[T], spec func(P) *wfv1.WorkflowSpec) {
	if result.UnknownFields, result.Decode = shared.DecodeAsController(doc, object); result.Decode != "" {
		return
	}
	ctx := validateContext()
	wfGetter, cwfGetter := found.getters(object.GetNamespace())
	lintErr := check(ctx, wfGetter, cwfGetter, object.DeepCopy(), nil, validate.ValidateOpts{Lint: true})
	createErr := check(ctx, wfGetter, cwfGetter, object.DeepCopy(), nil, validate.ValidateOpts{})
	result.Pods = workflowPods(spec(object))
	result.Validate = shared.ErrorText(lintErr)
	result.Create = shared.ErrorText(createErr)
}
