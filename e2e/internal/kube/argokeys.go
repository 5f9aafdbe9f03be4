package kube

// The labels and annotations the Argo workflow controller puts on Workflows and their pods, as upstream
// names them in workflow/common/common.go (LabelKeyWorkflow, LabelKeyCompleted, AnnotationKeyNodeName,
// AnnotationKeyNodeID, AnnotationKeyLastSeenVersion).
const (
	// ArgoLabelWorkflow names a pod's Workflow.
	ArgoLabelWorkflow = "workflows.argoproj.io/workflow"
	// ArgoLabelCompleted is "true" on a Workflow the controller has finished with.
	ArgoLabelCompleted = "workflows.argoproj.io/completed"
	// ArgoAnnotationNodeName is a pod's node name in its Workflow, e.g. `play-x[0].agent(1)`.
	ArgoAnnotationNodeName = "workflows.argoproj.io/node-name"
	// ArgoAnnotationNodeID is the id of a pod's node in the Workflow's status.nodes.
	ArgoAnnotationNodeID = "workflows.argoproj.io/node-id"
	// ArgoAnnotationLastSeenVersion is what the controller writes at every look at a running Workflow.
	ArgoAnnotationLastSeenVersion = "workflows.argoproj.io/last-seen-version"
)
