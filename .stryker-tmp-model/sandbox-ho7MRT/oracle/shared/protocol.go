// Package shared holds what the two oracle programs (oracle/events, oracle/workflows) have in common: the
// Request scripts/oracle.ts writes and the Answer each program gives (each answers for the kinds it owns; the
// answers are merged on the TypeScript side), and reading manifests the way Kubernetes does.
package shared

// Request is what to decide.
type Request struct {
	// Groups of manifest files read together: a WorkflowTemplate or EventBus is found among the objects of
	// its Group (as `argo lint` finds the templates of the files it is given).
	Groups []Group `json:"groups"`
	// Sensors run against events (the simulator's questions).
	SensorRuns []SensorRun `json:"sensorRuns"`
	// CRDs are the upstream Argo Workflows CRDs, which the API server checks Workflows objects against.
	CRDs []InputFile `json:"crds"`
}

type Group struct {
	ID    string      `json:"id"`
	Files []InputFile `json:"files"`
}

type InputFile struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// SensorRun is one Sensor (a manifest as JSON) and the events that reach it, one at a time.
type SensorRun struct {
	ID     string         `json:"id"`
	Sensor map[string]any `json:"sensor"`
	Events []WebhookEvent `json:"events"`
}

// WebhookEvent is one GitHub delivery, as the GitHub EventSource receives it.
type WebhookEvent struct {
	EventSourceName string              `json:"eventSourceName"`
	EventName       string              `json:"eventName"`
	Headers         map[string][]string `json:"headers"`
	// Body is the Request body as sent (JSON text).
	Body string `json:"body"`
	// Time is the CloudEvent time (RFC 3339).
	Time string `json:"time"`
	ID   string `json:"id"`
}

// Answer is what this program writes.
type Answer struct {
	GeneratedWith string         `json:"generatedWith"`
	Objects       []ObjectAnswer `json:"objects"`
	SensorRuns    []RunAnswer    `json:"sensorRuns"`
}

// ObjectAnswer is Argo's verdict on one object of a Group.
type ObjectAnswer struct {
	Group      string `json:"group"`
	File       string `json:"file"`
	Document   int    `json:"document"`
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	// YAML is the error of reading the document strictly (a key twice), as kubectl and the Argo CLIs do.
	YAML string `json:"yaml,omitempty"`
	// UnknownFields are the fields the controller's decoding drops (strict decoding's complaints).
	UnknownFields []string `json:"unknownFields,omitempty"`
	// Decode is the error of decoding the object the way the controller does, when it cannot.
	Decode string `json:"decode,omitempty"`
	// Metadata are the API server's complaints about metadata (name, labels, annotations).
	Metadata []string `json:"metadata,omitempty"`
	// Schema are the API server's complaints against the CRD's schema (structural, CEL); for a
	// CustomResourceDefinition, its complaints about the definition.
	Schema []string `json:"schema,omitempty"`
	// Validate is the controller's validation error ("" when it accepts the object); for Argo Workflows, as
	// `argo lint` calls it.
	Validate string `json:"validate,omitempty"`
	// Create is Argo Workflows' validation as the server calls it when the object is created (stricter than
	// lint about arguments without values).
	Create string `json:"create,omitempty"`
	// Pods are the pods the controller creates for the object, under the restricted Pod Security level.
	Pods []PodAnswer `json:"pods,omitempty"`
}

// PodAnswer is one pod a controller asks for and what Pod Security admission says at `restricted`.
type PodAnswer struct {
	// Name says which pod: a template name for a workflow, "deployment" for a Sensor or EventSource.
	Name string `json:"name"`
	// Forbidden lists the restricted checks it fails, as Pod Security admission words them.
	Forbidden []string `json:"forbidden"`
	// Error is set when the pod could not be built (a podSpecPatch that does not apply).
	Error string `json:"error,omitempty"`
}

type RunAnswer struct {
	ID     string        `json:"id"`
	Error  string        `json:"error,omitempty"`
	Events []EventAnswer `json:"events"`
}

// EventAnswer is what one event did in the Sensor.
type EventAnswer struct {
	Dependencies []DependencyAnswer `json:"dependencies"`
	Triggers     []TriggerAnswer    `json:"triggers"`
}

type DependencyAnswer struct {
	Name string `json:"name"`
	// Listens says the dependency names this event's EventSource and event name.
	Listens bool   `json:"listens"`
	Passed  bool   `json:"passed"`
	Error   string `json:"error,omitempty"`
}

type TriggerAnswer struct {
	Name    string   `json:"name"`
	Firings []Firing `json:"firings"`
}

// Firing is one action of a trigger: the dependencies whose events it carries and the resource it creates.
type Firing struct {
	Dependencies []string       `json:"dependencies"`
	Resource     map[string]any `json:"resource,omitempty"`
	Error        string         `json:"error,omitempty"`
}
