package main

import (
	"context"
	"fmt"

	"go.uber.org/zap"
	appv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"cdk8s-agent-play/oracle/shared"

	"github.com/argoproj/argo-events/pkg/apis/events/v1alpha1"
	eventsourcereconciler "github.com/argoproj/argo-events/pkg/reconciler/eventsource"
	sensorreconciler "github.com/argoproj/argo-events/pkg/reconciler/sensor"
)

// readyJetStreamBus is the bus the pods are built for: the bus only adds secrets and environment variables.
func readyJetStreamBus(namespace string) *v1alpha1.EventBus {
	bus := &v1alpha1.EventBus{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: v1alpha1.DefaultEventBusName}}
	bus.Spec.JetStream = &v1alpha1.JetStreamBus{}
	bus.Status.Config.JetStream = &v1alpha1.JetStreamConfig{URL: "nats://eventbus-default-js-svc:4222"}
	bus.Status.InitConditions()
	bus.Status.MarkDeployed("Deployed", "")
	bus.Status.MarkConfigured()
	return bus
}

// deploymentClient is a controller-runtime fake client that knows the types the reconcilers read and write,
// holding objects.
func deploymentClient(objects ...client.Object) client.Client {
	scheme := runtime.NewScheme()
	_ = appv1.AddToScheme(scheme)
	_ = corev1.AddToScheme(scheme)
	_ = v1alpha1.AddToScheme(scheme)
	return fake.NewClientBuilder().WithScheme(scheme).WithObjects(objects...).Build()
}

// createdPod is the pod template of the one Deployment the reconciler created.
func createdPod(cl client.Client) (*corev1.PodTemplateSpec, error) {
	deployments := &appv1.DeploymentList{}
	if err := cl.List(context.Background(), deployments); err != nil {
		return nil, err
	}
	if len(deployments.Items) != 1 {
		return nil, fmt.Errorf("the reconciler created %d deployments", len(deployments.Items))
	}
	return &deployments.Items[0].Spec.Template, nil
}

// sensorPod builds the Sensor's Deployment with the controller's own reconciler
// (pkg/reconciler/sensor/resource.go) and judges its pod.
func sensorPod(sensor *v1alpha1.Sensor) shared.PodAnswer {
	cl := deploymentClient()
	args := &sensorreconciler.AdaptorArgs{Image: "quay.io/argoproj/argo-events:v1.9.11", Sensor: sensor.DeepCopy(), Labels: map[string]string{"sensor-name": sensor.Name}}
	if err := sensorreconciler.Reconcile(cl, readyJetStreamBus(sensor.Namespace), args, zap.NewNop().Sugar()); err != nil {
		return shared.PodAnswer{Name: "deployment", Forbidden: []string{}, Error: err.Error()}
	}
	return judged(cl)
}

// eventSourcePod is sensorPod for an EventSource (pkg/reconciler/eventsource/resource.go).
func eventSourcePod(source *v1alpha1.EventSource) shared.PodAnswer {
	bus := readyJetStreamBus(source.Namespace)
	if source.Spec.EventBusName != "" {
		bus.Name = source.Spec.EventBusName
	}
	cl := deploymentClient(bus)
	args := &eventsourcereconciler.AdaptorArgs{Image: "quay.io/argoproj/argo-events:v1.9.11", EventSource: source.DeepCopy(), Labels: map[string]string{"eventsource-name": source.Name}}
	if err := eventsourcereconciler.Reconcile(cl, args, zap.NewNop().Sugar()); err != nil {
		return shared.PodAnswer{Name: "deployment", Forbidden: []string{}, Error: err.Error()}
	}
	return judged(cl)
}

func judged(cl client.Client) shared.PodAnswer {
	pod, err := createdPod(cl)
	if err != nil {
		return shared.PodAnswer{Name: "deployment", Forbidden: []string{}, Error: err.Error()}
	}
	return shared.PodAnswer{Name: "deployment", Forbidden: shared.Restricted(&pod.ObjectMeta, &pod.Spec)}
}
