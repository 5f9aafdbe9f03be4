package main

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func obj(m map[string]any) *unstructured.Unstructured { return &unstructured.Unstructured{Object: m} }

func TestReferencedSecrets(t *testing.T) {
	objs := []*unstructured.Unstructured{
		obj(map[string]any{"kind": "WorkflowTemplate", "metadata": map[string]any{"name": "play"}, "spec": map[string]any{"templates": []any{
			map[string]any{"volumes": []any{map[string]any{"secret": map[string]any{"secretName": "github-app-5dlabs-rex"}}},
				"script": map[string]any{"env": []any{
					map[string]any{"name": "CURSOR_API_KEY", "valueFrom": map[string]any{"secretKeyRef": map[string]any{"name": "cursor-api-key", "key": "api-key"}}},
					map[string]any{"name": "SECRET", "valueFrom": map[string]any{"secretKeyRef": map[string]any{"name": "github-webhook-secret", "key": "secret"}}},
					map[string]any{"name": "TOKEN", "valueFrom": map[string]any{"secretKeyRef": map[string]any{"name": "play-token", "key": "token"}}},
				}}},
		}}}),
		obj(map[string]any{"kind": "Secret", "metadata": map[string]any{"name": "play-token"}}),
	}
	refs := referencedSecrets(objs)
	if len(refs) != 2 || refs["github-app-5dlabs-rex"] == nil || !refs["cursor-api-key"]["api-key"] {
		t.Fatalf("refs: %v (want the App's and the API key's, not the webhook Secret or one the platform makes)", refs)
	}
}

func TestRegistryRepositories(t *testing.T) {
	registry := func(data map[string]any) *unstructured.Unstructured {
		return obj(map[string]any{"kind": "ConfigMap", "metadata": map[string]any{"name": "play-repositories-1",
			"labels": map[string]any{"agents.platform/repository-registry": "true"}}, "data": data})
	}
	repos, err := registryRepositories([]*unstructured.Unstructured{
		registry(map[string]any{"5dlabs.cto-play-test": `{"name":"5dlabs/cto-play-test","branch":"main"}`}),
		obj(map[string]any{"kind": "ConfigMap", "metadata": map[string]any{"name": "other"}, "data": map[string]any{"x": "not json"}}),
	})
	if err != nil || len(repos) != 1 || repos["5dlabs/cto-play-test"] != "main" {
		t.Fatalf("repos: %v %v", repos, err)
	}
	if _, err := registryRepositories([]*unstructured.Unstructured{registry(map[string]any{"bad": `{"name":"a/b"}`})}); err == nil {
		t.Fatal("an entry without a branch must be refused")
	}
}
