package kube

import "k8s.io/apimachinery/pkg/runtime/schema"

// The resources the harness reads by name.
var (
	CRDResource      = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	WorkflowResource = schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "workflows"}
	TemplateResource = schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "workflowtemplates"}
	EventBusResource = schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "eventbus"}
	SensorResource   = schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "sensors"}
	SourceResource   = schema.GroupVersionResource{Group: "argoproj.io", Version: "v1alpha1", Resource: "eventsources"}
)
