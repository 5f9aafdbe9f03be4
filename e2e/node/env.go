package node

import (
	"context"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/kubernetes/pkg/fieldpath"
	"k8s.io/kubernetes/third_party/forked/golang/expansion"
)

// containerEnv resolves a container's environment as the kubelet does (pkg/kubelet/kubelet_pods.go
// makeEnvironmentVariables): the service variables of the API server, envFrom, then env in order, each
// value expanded with $(NAME) against what came before; fieldRef, secretKeyRef and configMapKeyRef read.
func containerEnv(ctx context.Context, kc kubernetes.Interface, pod *corev1.Pod, c *corev1.Container, podIP string) ([]string, map[string]string, error) {
	env := map[string]string{}
	var order []string
	set := func(k, v string) {
		if _, ok := env[k]; !ok {
			order = append(order, k)
		}
		env[k] = v
	}
	// Pods reach the API server at loopback (no kube-proxy, no cluster IPs).
	for k, v := range map[string]string{
		"KUBERNETES_SERVICE_HOST": "127.0.0.1", "KUBERNETES_SERVICE_PORT": "6443", "KUBERNETES_SERVICE_PORT_HTTPS": "6443",
		"KUBERNETES_PORT": "tcp://127.0.0.1:6443", "KUBERNETES_PORT_443_TCP": "tcp://127.0.0.1:6443",
		"KUBERNETES_PORT_443_TCP_ADDR": "127.0.0.1", "KUBERNETES_PORT_443_TCP_PORT": "6443", "KUBERNETES_PORT_443_TCP_PROTO": "tcp",
	} {
		set(k, v)
	}
	ns := pod.Namespace
	for _, from := range c.EnvFrom {
		switch {
		case from.ConfigMapRef != nil:
			cm, err := kc.CoreV1().ConfigMaps(ns).Get(ctx, from.ConfigMapRef.Name, metav1.GetOptions{})
			if err != nil {
				if apierrors.IsNotFound(err) && optional(from.ConfigMapRef.Optional) {
					continue
				}
				return nil, nil, fmt.Errorf("envFrom configMap %s: %w", from.ConfigMapRef.Name, err)
			}
			for k, v := range cm.Data {
				set(from.Prefix+k, v)
			}
		case from.SecretRef != nil:
			s, err := kc.CoreV1().Secrets(ns).Get(ctx, from.SecretRef.Name, metav1.GetOptions{})
			if err != nil {
				if apierrors.IsNotFound(err) && optional(from.SecretRef.Optional) {
					continue
				}
				return nil, nil, fmt.Errorf("envFrom secret %s: %w", from.SecretRef.Name, err)
			}
			for k, v := range s.Data {
				set(from.Prefix+k, string(v))
			}
		}
	}
	mapping := expansion.MappingFuncFor(env)
	for _, e := range c.Env {
		v := e.Value
		if v != "" {
			v = expansion.Expand(v, mapping)
		}
		if src := e.ValueFrom; src != nil {
			var err error
			var skip bool
			v, skip, err = valueFrom(ctx, kc, pod, c, src, podIP)
			if err != nil {
				return nil, nil, fmt.Errorf("env %s: %w", e.Name, err)
			}
			if skip {
				continue
			}
		}
		set(e.Name, v)
	}
	out := make([]string, 0, len(order))
	for _, k := range order {
		out = append(out, k+"="+env[k])
	}
	return out, env, nil
}

func valueFrom(ctx context.Context, kc kubernetes.Interface, pod *corev1.Pod, c *corev1.Container, src *corev1.EnvVarSource, podIP string) (string, bool, error) {
	switch {
	case src.FieldRef != nil:
		v, err := podField(pod, src.FieldRef.FieldPath, podIP)
		return v, false, err
	case src.ResourceFieldRef != nil:
		// No resource accounting here: a limit is given as written, else the node's whole (0 = none).
		if q, ok := c.Resources.Limits[corev1.ResourceName(strings.TrimPrefix(src.ResourceFieldRef.Resource, "limits."))]; ok {
			return q.String(), false, nil
		}
		return "0", false, nil
	case src.SecretKeyRef != nil:
		r := src.SecretKeyRef
		s, err := kc.CoreV1().Secrets(pod.Namespace).Get(ctx, r.Name, metav1.GetOptions{})
		if err != nil {
			if apierrors.IsNotFound(err) && optional(r.Optional) {
				return "", true, nil
			}
			return "", false, fmt.Errorf("secret %s: %w", r.Name, err)
		}
		v, ok := s.Data[r.Key]
		if !ok {
			if optional(r.Optional) {
				return "", true, nil
			}
			return "", false, fmt.Errorf("secret %s has no key %s", r.Name, r.Key)
		}
		return string(v), false, nil
	case src.ConfigMapKeyRef != nil:
		r := src.ConfigMapKeyRef
		cm, err := kc.CoreV1().ConfigMaps(pod.Namespace).Get(ctx, r.Name, metav1.GetOptions{})
		if err != nil {
			if apierrors.IsNotFound(err) && optional(r.Optional) {
				return "", true, nil
			}
			return "", false, fmt.Errorf("configMap %s: %w", r.Name, err)
		}
		v, ok := cm.Data[r.Key]
		if !ok {
			if optional(r.Optional) {
				return "", true, nil
			}
			return "", false, fmt.Errorf("configMap %s has no key %s", r.Name, r.Key)
		}
		return v, false, nil
	}
	return "", false, fmt.Errorf("unsupported valueFrom")
}

// podField reads a downward-API field path as the kubelet does (podFieldSelectorRuntimeValue).
func podField(pod *corev1.Pod, path, podIP string) (string, error) {
	switch path {
	case "spec.nodeName":
		return pod.Spec.NodeName, nil
	case "spec.serviceAccountName":
		return pod.Spec.ServiceAccountName, nil
	case "status.hostIP", "status.hostIPs":
		return "127.0.0.1", nil
	case "status.podIP", "status.podIPs":
		return podIP, nil
	}
	return fieldpath.ExtractFieldPathAsString(pod, path)
}

func optional(b *bool) bool { return b != nil && *b }

// expandArgs expands $(NAME) in command and args with the container's environment, as the kubelet does.
func expandArgs(list []string, env map[string]string) []string {
	mapping := expansion.MappingFuncFor(env)
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = expansion.Expand(s, mapping)
	}
	return out
}

// lastWins keeps one entry per variable, the last one given, in the order first given: the pod's
// variables over the image's and the node's (a container setting HOME gets its own, not the "/" the node
// gives users without a passwd entry). A program reading its environment would otherwise take whichever
// copy its runtime picks first (Go's os.Getenv takes the first).
func lastWins(env []string) []string {
	index := map[string]int{}
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if i, ok := index[name]; ok {
			out[i] = kv
			continue
		}
		index[name] = len(out)
		out = append(out, kv)
	}
	return out
}
