package main

import (
	"cdk8s-agent-play/oracle/shared"

	"github.com/argoproj/argo-events/pkg/apis/events/v1alpha1"
	eventsourcereconciler "github.com/argoproj/argo-events/pkg/reconciler/eventsource"
	sensorreconciler "github.com/argoproj/argo-events/pkg/reconciler/sensor"
)

// eventsKinds are the kinds this module decides.
var eventsKinds = map[string]bool{"Sensor": true, "EventSource": true, "EventBus": true}

// groupAnswers decides every Argo Events object of a group.
func groupAnswers(g shared.Group) ([]shared.ObjectAnswer, error) {
	docs, err := shared.GroupDocuments(g)
	if err != nil {
		return nil, err
	}
	buses := eventBuses(docs)
	var answers []shared.ObjectAnswer
	for _, doc := range docs {
		if doc.Type.APIVersion != "argoproj.io/v1alpha1" || !eventsKinds[doc.Type.Kind] {
			continue
		}
		answers = append(answers, objectVerdict(g.ID, doc, buses))
	}
	return answers, nil
}

// eventBuses are the EventBuses of a group by namespace and name, decoded as the controller decodes them.
func eventBuses(docs []shared.Document) map[string]*v1alpha1.EventBus {
	buses := map[string]*v1alpha1.EventBus{}
	for _, doc := range docs {
		if doc.Type.APIVersion != "argoproj.io/v1alpha1" || doc.Type.Kind != "EventBus" {
			continue
		}
		bus := &v1alpha1.EventBus{}
		if _, err := shared.DecodeAsController(doc, bus); err == "" {
			buses[bus.Namespace+"/"+bus.Name] = bus
		}
	}
	return buses
}

func objectVerdict(groupID string, doc shared.Document, buses map[string]*v1alpha1.EventBus) shared.ObjectAnswer {
	result := shared.NewObjectAnswer(groupID, doc)
	switch doc.Type.Kind {
	case "Sensor":
		sensor := &v1alpha1.Sensor{}
		result.UnknownFields, result.Decode = shared.DecodeAsController(doc, sensor)
		if result.Decode != "" {
			return result
		}
		result.Validate = shared.ErrorText(sensorreconciler.ValidateSensor(sensor, busOf(sensor.Namespace, sensor.Spec.EventBusName, buses)))
		result.Pods = []shared.PodAnswer{sensorPod(sensor)}
	case "EventSource":
		source := &v1alpha1.EventSource{}
		result.UnknownFields, result.Decode = shared.DecodeAsController(doc, source)
		if result.Decode != "" {
			return result
		}
		result.Validate = shared.ErrorText(eventsourcereconciler.ValidateEventSource(source))
		result.Pods = []shared.PodAnswer{eventSourcePod(source)}
	case "EventBus":
		bus := &v1alpha1.EventBus{}
		result.UnknownFields, result.Decode = shared.DecodeAsController(doc, bus)
	}
	return result
}

// busOf is the EventBus a Sensor names, from its group; a JetStream bus (the default install's) when the group
// has none, so that a Sensor is judged on its own.
func busOf(namespace, name string, buses map[string]*v1alpha1.EventBus) *v1alpha1.EventBus {
	if name == "" {
		name = v1alpha1.DefaultEventBusName
	}
	if bus, ok := buses[namespace+"/"+name]; ok {
		return bus
	}
	return &v1alpha1.EventBus{Spec: v1alpha1.EventBusSpec{JetStream: &v1alpha1.JetStreamBus{}}}
}
