package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/textproto"
	"strings"
	"time"

	"github.com/Knetic/govaluate"
	"github.com/antonmedv/expr"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kjson "sigs.k8s.io/json"

	"cdk8s-agent-play/oracle/shared"

	"github.com/argoproj/argo-events/pkg/apis/events/v1alpha1"
	"github.com/argoproj/argo-events/pkg/eventsources/events"
	"github.com/argoproj/argo-events/pkg/sensors/dependencies"
	"github.com/argoproj/argo-events/pkg/sensors/triggers"
)

// runSensor answers one shared.SensorRun: each event in turn, with the dependencies that an AND expression keeps
// waiting (the JetStream bus's key/value store) carried from one event to the next, as a running Sensor
// carries them.
func runSensor(run shared.SensorRun) shared.RunAnswer {
	result := shared.RunAnswer{ID: run.ID, Events: []shared.EventAnswer{}}
	sensor, err := decodeSensor(run.Sensor)
	if err != nil {
		result.Error = err.Error()
		return result
	}
	connections := make([]*triggerConnection, 0, len(sensor.Spec.Triggers))
	for _, trigger := range sensor.Spec.Triggers {
		connection, err := connect(sensor, trigger)
		if err != nil {
			result.Error = fmt.Sprintf("trigger %s: %v", trigger.Template.Name, err)
			return result
		}
		connections = append(connections, connection)
	}
	for _, delivery := range run.Events {
		event, err := githubEvent(delivery)
		if err != nil {
			result.Error = err.Error()
			return result
		}
		answer := shared.EventAnswer{Dependencies: []shared.DependencyAnswer{}, Triggers: []shared.TriggerAnswer{}}
		for _, dep := range sensor.Spec.Dependencies {
			listens := dep.EventSourceName == delivery.EventSourceName && dep.EventName == delivery.EventName
			verdict := shared.DependencyAnswer{Name: dep.Name, Listens: listens}
			if listens {
				verdict.Passed, verdict.Error = filtered(dep, event)
			}
			answer.Dependencies = append(answer.Dependencies, verdict)
		}
		for _, connection := range connections {
			answer.Triggers = append(answer.Triggers, connection.receive(delivery, event))
		}
		result.Events = append(result.Events, answer)
	}
	return result
}

// decodeSensor decodes a Sensor as the sensor pod does (client-go's case-sensitive JSON).
func decodeSensor(object map[string]any) (*v1alpha1.Sensor, error) {
	raw, err := json.Marshal(object)
	if err != nil {
		return nil, err
	}
	sensor := &v1alpha1.Sensor{}
	if err := kjson.UnmarshalCaseSensitivePreserveInts(raw, sensor); err != nil {
		return nil, err
	}
	return sensor, nil
}

// githubEvent is the event the GitHub EventSource publishes for a delivery
// (pkg/eventsources/sources/github/start.go: parseValidateRequest copies the event and delivery headers
// into the body, which it decodes into a map and encodes again; HandleRoute wraps it in GithubEventData),
// as the sensor reads it (pkg/sensors/listener.go, convertEvent).
func githubEvent(delivery shared.WebhookEvent) (*v1alpha1.Event, error) {
	header := http.Header{}
	for key, values := range delivery.Headers {
		header[textproto.CanonicalMIMEHeaderKey(key)] = values
	}
	payload := make(map[string]interface{})
	if err := json.Unmarshal([]byte(delivery.Body), &payload); err != nil {
		return nil, fmt.Errorf("the GitHub EventSource discards the delivery: %w", err)
	}
	for _, name := range []string{"X-GitHub-Event", "X-GitHub-Delivery"} {
		payload[name] = header.Get(name)
	}
	body, err := json.Marshal(payload)
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(&events.GithubEventData{Headers: header, Body: (*json.RawMessage)(&body)})
	if err != nil {
		return nil, err
	}
	at, err := time.Parse(time.RFC3339Nano, delivery.Time)
	if err != nil {
		return nil, fmt.Errorf("event time: %w", err)
	}
	return &v1alpha1.Event{
		Context: &v1alpha1.EventContext{
			ID: delivery.ID, Source: delivery.EventSourceName, Subject: delivery.EventName, Type: "github",
			SpecVersion: "1.0", DataContentType: "application/json", Time: metav1.Time{Time: at},
		},
		Data: data,
	}, nil
}

// filtered is the sensor's filterFunc (pkg/sensors/listener.go): no filters pass; otherwise Filter decides,
// and an error with a passing result still passes.
func filtered(dep v1alpha1.EventDependency, event *v1alpha1.Event) (bool, string) {
	if dep.Filters == nil {
		return true, ""
	}
	passed, err := dependencies.Filter(event, dep.Filters, dep.FiltersLogicalOperator)
	return passed, shared.ErrorText(err)
}

// triggerConnection is one trigger's subscription: its dependency expression and the dependencies an AND
// expression has seen so far (pkg/eventbus/jetstream/sensor/trigger_conn.go).
type triggerConnection struct {
	sensor      *v1alpha1.Sensor
	trigger     v1alpha1.Trigger
	expression  *govaluate.EvaluableExpression
	requiresAND bool
	deps        []v1alpha1.EventDependency
	saved       map[string]*v1alpha1.Event
}

// connect is what listenEvents does for a trigger before subscribing (pkg/sensors/listener.go): the
// dependency expression, the dependencies it names, and the JetStream connection's AND test.
func connect(sensor *v1alpha1.Sensor, trigger v1alpha1.Trigger) (*triggerConnection, error) {
	if trigger.Template == nil {
		return nil, fmt.Errorf("no template")
	}
	depExpression, err := dependencyExpression(sensor, trigger)
	if err != nil {
		return nil, err
	}
	evaluable, err := govaluate.NewEvaluableExpression(strings.ReplaceAll(depExpression, "-", "\\-"))
	if err != nil {
		return nil, err
	}
	byName := map[string]v1alpha1.EventDependency{}
	for _, dep := range sensor.Spec.Dependencies {
		byName[dep.Name] = dep
	}
	connection := &triggerConnection{
		sensor: sensor, trigger: trigger, expression: evaluable,
		requiresAND: strings.Contains(depExpression, "&"), saved: map[string]*v1alpha1.Event{},
	}
	seen := map[string]bool{}
	for _, name := range evaluable.Vars() {
		if seen[name] {
			continue
		}
		seen[name] = true
		dep, ok := byName[name]
		if !ok {
			return nil, fmt.Errorf("dependency expression and dependency list do not match, %s is not found", name)
		}
		connection.deps = append(connection.deps, dep)
	}
	return connection, nil
}

// dependencyExpression is getDependencyExpression of pkg/sensors/listener.go: the conditions with group
// names translated by expr, or every dependency joined by &&.
func dependencyExpression(sensor *v1alpha1.Sensor, trigger v1alpha1.Trigger) (string, error) {
	if trigger.Template.Conditions == "" {
		names := []string{}
		for _, dep := range sensor.Spec.Dependencies {
			names = append(names, dep.Name)
		}
		return strings.Join(names, "&&"), nil
	}
	parameters := map[string]string{}
	for _, dep := range sensor.Spec.Dependencies {
		parameters[strings.ReplaceAll(dep.Name, "-", "_")] = dep.Name
	}
	original := trigger.Template.Conditions
	original = strings.ReplaceAll(original, "&&", " + \"&&\" + ")
	original = strings.ReplaceAll(original, "||", " + \"||\" + ")
	original = strings.ReplaceAll(original, "-", "_")
	original = strings.ReplaceAll(original, "(", "\"(\"+")
	original = strings.ReplaceAll(original, ")", "+\")\"")
	program, err := expr.Compile(original, expr.Env(parameters))
	if err != nil {
		return "", err
	}
	value, err := expr.Run(program, parameters)
	if err != nil {
		return "", err
	}
	translated := fmt.Sprintf("%v", value)
	translated = strings.ReplaceAll(translated, "\"(\"", "(")
	translated = strings.ReplaceAll(translated, "\")\"", ")")
	return translated, nil
}

// receive is processMsg and processDependency of trigger_conn.go for one event: each dependency of the
// trigger that listens to the event's source, filtered; without AND each passing one fires the trigger on
// its own; with AND the expression decides over the dependencies seen so far.
func (c *triggerConnection) receive(delivery shared.WebhookEvent, event *v1alpha1.Event) shared.TriggerAnswer {
	answer := shared.TriggerAnswer{Name: c.trigger.Template.Name, Firings: []shared.Firing{}}
	for _, dep := range c.deps {
		if dep.EventSourceName != delivery.EventSourceName || dep.EventName != delivery.EventName {
			continue
		}
		if dep.Transform != nil {
			answer.Firings = append(answer.Firings, shared.Firing{Dependencies: []string{dep.Name}, Error: "transforms are not run by the oracle"})
			continue
		}
		if passed, _ := filtered(dep, event); !passed {
			continue
		}
		if !c.requiresAND {
			answer.Firings = append(answer.Firings, c.fire(map[string]*v1alpha1.Event{dep.Name: event}))
			continue
		}
		parameters := map[string]interface{}{}
		for _, known := range c.deps {
			_, seen := c.saved[known.Name]
			parameters[known.Name] = seen
		}
		parameters[dep.Name] = true
		result, err := c.expression.Evaluate(parameters)
		if err != nil {
			continue
		}
		if result == true {
			messages := map[string]*v1alpha1.Event{dep.Name: event}
			for name, saved := range c.saved {
				if name != dep.Name {
					messages[name] = saved
				}
			}
			answer.Firings = append(answer.Firings, c.fire(messages))
			c.saved = map[string]*v1alpha1.Event{}
		} else {
			c.saved[dep.Name] = event
		}
	}
	return answer
}

// fire is triggerOne of pkg/sensors/listener.go up to the resource it would create: the trigger's own
// parameters (ApplyTemplateParameters), the resource (FetchKubernetesResource for an inline source), and
// the template's parameters on it (ApplyResourceParameters).
func (c *triggerConnection) fire(eventsByDependency map[string]*v1alpha1.Event) shared.Firing {
	names := make([]string, 0, len(eventsByDependency))
	for _, dep := range c.deps {
		if _, ok := eventsByDependency[dep.Name]; ok {
			names = append(names, dep.Name)
		}
	}
	result := shared.Firing{Dependencies: names}
	trigger := *c.trigger.DeepCopy()
	if err := triggers.ApplyTemplateParameters(eventsByDependency, &trigger); err != nil {
		result.Error = err.Error()
		return result
	}
	var source *v1alpha1.ArtifactLocation
	var parameters []v1alpha1.TriggerParameter
	switch {
	case trigger.Template.K8s != nil:
		source, parameters = trigger.Template.K8s.Source, trigger.Template.K8s.Parameters
	case trigger.Template.ArgoWorkflow != nil:
		source, parameters = trigger.Template.ArgoWorkflow.Source, trigger.Template.ArgoWorkflow.Parameters
	default:
		result.Error = "only k8s and argoWorkflow triggers create a resource"
		return result
	}
	object, err := triggers.FetchKubernetesResource(source)
	if err != nil {
		result.Error = err.Error()
		return result
	}
	if err := triggers.ApplyResourceParameters(eventsByDependency, parameters, object); err != nil {
		result.Error = err.Error()
		return result
	}
	result.Resource = object.Object
	return result
}
