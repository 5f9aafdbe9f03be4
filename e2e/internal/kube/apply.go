// Package kube holds the harness's API helpers: clients from a kubeconfig, server-side apply of
// manifest files (as ArgoCD applies them), and waits.
package kube

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
)

// FieldManager is the field manager ArgoCD's server-side apply uses.
const FieldManager = "argocd-controller"

// Client bundles what the harness talks to the API server with.
type Client struct {
	Config  *rest.Config
	Kube    kubernetes.Interface
	Dynamic dynamic.Interface
	// Metadata lists and gets objects' metadata only (PartialObjectMetadata).
	Metadata metadata.Interface
	mapper   *restmapper.DeferredDiscoveryRESTMapper
}

// NewClient builds clients from a kubeconfig file.
func NewClient(kubeconfig string) (*Client, error) {
	rc, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, err
	}
	rc.QPS, rc.Burst = 100, 200
	kc, err := kubernetes.NewForConfig(rc)
	if err != nil {
		return nil, err
	}
	dc, err := dynamic.NewForConfig(rc)
	if err != nil {
		return nil, err
	}
	disc, err := discovery.NewDiscoveryClientForConfig(rc)
	if err != nil {
		return nil, err
	}
	mc, err := metadata.NewForConfig(rc)
	if err != nil {
		return nil, err
	}
	return &Client{Config: rc, Kube: kc, Dynamic: dc, Metadata: mc, mapper: restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disc))}, nil
}

// ReadObjects reads every object of the YAML files given (folders: their *.yaml and *.yml files, sorted).
func ReadObjects(paths ...string) ([]*unstructured.Unstructured, error) {
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		var names []string
		for _, e := range entries {
			if !e.IsDir() && (strings.HasSuffix(e.Name(), ".yaml") || strings.HasSuffix(e.Name(), ".yml")) && e.Name() != "kustomization.yaml" {
				names = append(names, filepath.Join(p, e.Name()))
			}
		}
		sort.Strings(names)
		files = append(files, names...)
	}
	var out []*unstructured.Unstructured
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		objs, err := DecodeObjects(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out = append(out, objs...)
	}
	return out, nil
}

// DecodeObjects splits a multi-document YAML (or JSON) text into objects (empty documents skipped).
func DecodeObjects(b []byte) ([]*unstructured.Unstructured, error) {
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(b), 4096)
	var out []*unstructured.Unstructured
	for {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, err
		}
		if len(m) == 0 {
			continue
		}
		u := &unstructured.Unstructured{Object: m}
		if u.GetKind() == "List" {
			items, _, _ := unstructured.NestedSlice(m, "items")
			for _, it := range items {
				if im, ok := it.(map[string]any); ok {
					out = append(out, &unstructured.Unstructured{Object: im})
				}
			}
			continue
		}
		out = append(out, u)
	}
}

// Apply applies the objects with server-side apply (force, ArgoCD's field manager): CustomResource-
// Definitions first, waited for until established; namespaced objects without a namespace get ns.
// It returns every error (the object and the API server's words), not only the first.
func (c *Client) Apply(ctx context.Context, objs []*unstructured.Unstructured, ns string) error {
	var crds, rest []*unstructured.Unstructured
	for _, o := range objs {
		if o.GetKind() == "CustomResourceDefinition" {
			crds = append(crds, o)
		} else {
			rest = append(rest, o)
		}
	}
	var errs []error
	for _, o := range crds {
		if err := c.applyOne(ctx, o, ns); err != nil {
			errs = append(errs, err)
		}
	}
	for _, o := range crds {
		if err := c.waitEstablished(ctx, o.GetName()); err != nil {
			errs = append(errs, err)
		}
	}
	if len(crds) > 0 {
		c.mapper.Reset()
	}
	// Namespaces before what lives in them.
	sort.SliceStable(rest, func(i, j int) bool { return rest[i].GetKind() == "Namespace" && rest[j].GetKind() != "Namespace" })
	for _, o := range rest {
		if err := c.applyOne(ctx, o, ns); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (c *Client) applyOne(ctx context.Context, o *unstructured.Unstructured, ns string) error {
	gvk := o.GroupVersionKind()
	m, err := c.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		c.mapper.Reset()
		if m, err = c.mapper.RESTMapping(gvk.GroupKind(), gvk.Version); err != nil {
			return fmt.Errorf("%s %s: %w", gvk.Kind, o.GetName(), err)
		}
	}
	var ri dynamic.ResourceInterface = c.Dynamic.Resource(m.Resource)
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		if o.GetNamespace() == "" {
			o.SetNamespace(ns)
		}
		ri = c.Dynamic.Resource(m.Resource).Namespace(o.GetNamespace())
	}
	body, err := o.MarshalJSON()
	if err != nil {
		return err
	}
	force := true
	_, err = ri.Patch(ctx, o.GetName(), types.ApplyPatchType, body, metav1.PatchOptions{FieldManager: FieldManager, Force: &force})
	if err != nil {
		return fmt.Errorf("apply %s %s/%s: %w", gvk.Kind, o.GetNamespace(), o.GetName(), err)
	}
	return nil
}

func (c *Client) waitEstablished(ctx context.Context, name string) error {
	gvr := CRDResource
	return Poll(ctx, 60*time.Second, func() (bool, error) {
		u, err := c.Dynamic.Resource(gvr).Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
		for _, cnd := range conds {
			cm, _ := cnd.(map[string]any)
			if cm["type"] == "Established" && cm["status"] == "True" {
				return true, nil
			}
		}
		return false, nil
	})
}

// Poll calls fn every 250 ms until it says done, fails, or limit passes.
func Poll(ctx context.Context, limit time.Duration, fn func() (bool, error)) error {
	deadline := time.Now().Add(limit)
	for {
		done, err := fn()
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("timed out after %s", limit)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}
