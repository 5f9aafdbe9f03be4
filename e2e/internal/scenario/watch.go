package scenario

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"

	"cdk8s-agent-play/e2e/internal/coderun"
	"cdk8s-agent-play/e2e/internal/kube"
)

// watched keeps the namespace's Workflows, CodeRuns, pods and ConfigMaps as the API server's watches
// report them, for settle to read every quarter second: listing them that often (every play's stored
// spec and nodes, the runtime ConfigMap's program) cost the API server and the harness more processor
// time than the scenario's own pods. A watch brings each change once, in the order the API server made
// them; what the cache is behind by (milliseconds) the quiet window covers.
type watched struct {
	workflows, coderuns, pods, configmaps cache.SharedIndexInformer
	stop                                  context.CancelFunc
	// states memoizes workflowState by UID and resourceVersion (an object version never changes).
	states map[string]string
}

// watch starts the caches and waits until each has listed the namespace once.
func watch(ctx context.Context, c *kube.Client, ns string) (*watched, error) {
	ctx, stop := context.WithCancel(ctx)
	dyn := dynamicinformer.NewFilteredDynamicSharedInformerFactory(c.Dynamic, 0, ns, nil)
	typed := informers.NewSharedInformerFactoryWithOptions(c.Kube, 0, informers.WithNamespace(ns))
	w := &watched{
		workflows:  dyn.ForResource(kube.WorkflowResource).Informer(),
		pods:       typed.Core().V1().Pods().Informer(),
		configmaps: typed.Core().V1().ConfigMaps().Informer(),
		stop:       stop,
		states:     map[string]string{},
	}
	synced := []cache.InformerSynced{w.workflows.HasSynced, w.pods.HasSynced, w.configmaps.HasSynced}
	// A platform whose agents all run direct has no CodeRun CRD (docs/executors.md): an informer of a
	// resource the API server does not serve would never fill, so there is none and no CodeRun is read.
	_, err := c.Dynamic.Resource(coderun.Resource).Namespace(ns).List(ctx, metav1.ListOptions{Limit: 1})
	switch {
	case err == nil:
		w.coderuns = dyn.ForResource(coderun.Resource).Informer()
		synced = append(synced, w.coderuns.HasSynced)
	case !apierrors.IsNotFound(err):
		stop()
		return nil, fmt.Errorf("watch namespace %s: list CodeRuns: %w", ns, err)
	}
	dyn.Start(ctx.Done())
	typed.Start(ctx.Done())
	within, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if !cache.WaitForCacheSync(within.Done(), synced...) {
		stop()
		return nil, fmt.Errorf("watch namespace %s: the caches did not fill within a minute", ns)
	}
	return w, nil
}

// itemsOf gives an informer's objects of type T (shared with the cache: never to be changed).
func itemsOf[T any](inf cache.SharedIndexInformer) []T {
	if inf == nil {
		return nil
	}
	items := inf.GetStore().List()
	out := make([]T, 0, len(items))
	for _, it := range items {
		if v, ok := it.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// values copies the cache's objects into a slice of values (for readers written for a list's items).
func values[T any](items []*T) []T {
	out := make([]T, len(items))
	for i, it := range items {
		out[i] = *it
	}
	return out
}

// state is workflowState, computed once per version of the Workflow.
func (w *watched) state(wf *unstructured.Unstructured) string {
	key := string(wf.GetUID()) + "/" + wf.GetResourceVersion()
	if s, ok := w.states[key]; ok {
		return s
	}
	s := workflowState(wf)
	w.states[key] = s
	return s
}
