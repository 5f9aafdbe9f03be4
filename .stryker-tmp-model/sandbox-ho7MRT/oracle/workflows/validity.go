package main

import (
	"context"
	"fmt"

	wfv1 "github.com/argoproj/argo-workflows/v4/pkg/apis/workflow/v1alpha1"
	"github.com/argoproj/argo-workflows/v4/util/logging"
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
	ctx := validateContext()
	lint := validate.ValidateOpts{Lint: true}
	create := validate.ValidateOpts{}
	var lintErr, createErr error
	switch doc.Type.Kind {
	case "Workflow":
		wf := &wfv1.Workflow{}
		if result.UnknownFields, result.Decode = shared.DecodeAsController(doc, wf); result.Decode != "" {
			return
		}
		wfGetter, cwfGetter := found.getters(wf.Namespace)
		lintErr = validate.ValidateWorkflow(ctx, wfGetter, cwfGetter, wf.DeepCopy(), nil, lint)
		createErr = validate.ValidateWorkflow(ctx, wfGetter, cwfGetter, wf.DeepCopy(), nil, create)
		result.Pods = workflowPods(&wf.Spec)
	case "WorkflowTemplate":
		template := &wfv1.WorkflowTemplate{}
		if result.UnknownFields, result.Decode = shared.DecodeAsController(doc, template); result.Decode != "" {
			return
		}
		wfGetter, cwfGetter := found.getters(template.Namespace)
		lintErr = validate.ValidateWorkflowTemplate(ctx, wfGetter, cwfGetter, template.DeepCopy(), nil, lint)
		createErr = validate.ValidateWorkflowTemplate(ctx, wfGetter, cwfGetter, template.DeepCopy(), nil, create)
		result.Pods = workflowPods(&template.Spec)
	case "ClusterWorkflowTemplate":
		template := &wfv1.ClusterWorkflowTemplate{}
		if result.UnknownFields, result.Decode = shared.DecodeAsController(doc, template); result.Decode != "" {
			return
		}
		wfGetter, cwfGetter := found.getters(template.Namespace)
		lintErr = validate.ValidateClusterWorkflowTemplate(ctx, wfGetter, cwfGetter, template.DeepCopy(), nil, lint)
		createErr = validate.ValidateClusterWorkflowTemplate(ctx, wfGetter, cwfGetter, template.DeepCopy(), nil, create)
		result.Pods = workflowPods(&template.Spec)
	case "CronWorkflow":
		cron := &wfv1.CronWorkflow{}
		if result.UnknownFields, result.Decode = shared.DecodeAsController(doc, cron); result.Decode != "" {
			return
		}
		wfGetter, cwfGetter := found.getters(cron.Namespace)
		lintErr = validate.ValidateCronWorkflow(ctx, wfGetter, cwfGetter, cron.DeepCopy(), nil)
		createErr = lintErr
		result.Pods = workflowPods(&cron.Spec.WorkflowSpec)
	}
	result.Validate = shared.ErrorText(lintErr)
	result.Create = shared.ErrorText(createErr)
}
