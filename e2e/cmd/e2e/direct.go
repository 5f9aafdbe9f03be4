package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"cdk8s-agent-play/e2e/internal/cluster"
	"cdk8s-agent-play/e2e/internal/fakegithub"
	"cdk8s-agent-play/e2e/internal/kube"
	"cdk8s-agent-play/e2e/internal/platformkeys"
)

// githubAppSecretPrefix names a direct agent's GitHub App Secret (github-app-{app, lower case};
// docs/executors.md, Secrets).
const githubAppSecretPrefix = "github-app-"

// prepareDirect gives a direct platform what the cluster must give it (docs/executors.md, Secrets: the
// platform references its agents' Secrets and never creates them) and what GitHub holds for it: each
// GitHub App Secret the platform's templates mount, made from an installation of the fake GitHub for the
// slot's namespace; each other Secret they read (the CLIs' API keys) with a value that is not a key; and
// each repository of the registry seeded on the fake git server with its base branch. It gives the
// namespace's fake CLIs (nil for a platform with no direct agent).
func prepareDirect(ctx context.Context, c *cluster.Cluster, ns, dir string) (*fakegithub.Agents, error) {
	objs, err := kube.ReadObjects(dir)
	if err != nil {
		return nil, err
	}
	refs := referencedSecrets(objs)
	direct := false
	for name := range refs {
		direct = direct || strings.HasPrefix(name, githubAppSecretPrefix)
	}
	if !direct {
		return nil, nil
	}
	var secrets []*unstructured.Unstructured
	names := make([]string, 0, len(refs))
	for name := range refs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		data := map[string]any{}
		if app, ok := strings.CutPrefix(name, githubAppSecretPrefix); ok {
			in, err := c.GitHub.Install(ns, app)
			if err != nil {
				return nil, err
			}
			for k, v := range in.Credentials() {
				data[k] = v
			}
		} else {
			for key := range refs[name] {
				data[key] = "e2e-not-an-api-key"
			}
		}
		secrets = append(secrets, &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": name, "namespace": ns}, "stringData": data,
		}})
	}
	if err := c.Client.Apply(ctx, secrets, ns); err != nil {
		return nil, fmt.Errorf("the direct agents' Secrets: %w", err)
	}
	repos, err := registryRepositories(objs)
	if err != nil {
		return nil, err
	}
	for repo, branch := range repos {
		if err := c.GitHub.Seed(ns, repo, branch); err != nil {
			return nil, fmt.Errorf("seed %s: %w", repo, err)
		}
	}
	agents := c.GitHub.Agents(ns)
	agents.Reset(podUIDs(c, ns))
	return agents, nil
}

// podUIDs looks a fake CLI's pod up by the name it reports: the pod of that name now is the CLI's own,
// since a pod's processes end before the pod leaves the API server.
func podUIDs(c *cluster.Cluster, ns string) fakegithub.PodUIDLookup {
	return func(pod string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		p, err := c.Client.Kube.CoreV1().Pods(ns).Get(ctx, pod, metav1.GetOptions{})
		if err != nil {
			return "", err
		}
		return string(p.UID), nil
	}
}

// referencedSecrets gives the Secrets the platform's objects read (a volume's secretName, an env
// secretKeyRef, with the keys read) that it does not make itself, but the webhook Secret, which
// platform.Prepare makes.
func referencedSecrets(objs []*unstructured.Unstructured) map[string]map[string]bool {
	made := map[string]bool{"github-webhook-secret": true}
	for _, o := range objs {
		if o.GetKind() == "Secret" {
			made[o.GetName()] = true
		}
	}
	refs := map[string]map[string]bool{}
	add := func(name, key string) {
		if name == "" || made[name] {
			return
		}
		if refs[name] == nil {
			refs[name] = map[string]bool{}
		}
		if key != "" {
			refs[name][key] = true
		}
	}
	var walk func(v any)
	walk = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			if name, ok := t["secretName"].(string); ok {
				add(name, "")
			}
			if ref, ok := t["secretKeyRef"].(map[string]any); ok {
				name, _ := ref["name"].(string)
				key, _ := ref["key"].(string)
				add(name, key)
			}
			for _, x := range t {
				walk(x)
			}
		case []any:
			for _, x := range t {
				walk(x)
			}
		}
	}
	for _, o := range objs {
		walk(o.Object)
	}
	return refs
}

// registryRepositories gives every repository of the platform's repository registry (the ConfigMaps
// labelled agents.platform/repository-registry=true, one JSON entry per repository) with its base branch.
func registryRepositories(objs []*unstructured.Unstructured) (map[string]string, error) {
	out := map[string]string{}
	for _, o := range objs {
		if o.GetKind() != "ConfigMap" || o.GetLabels()[platformkeys.RepositoryRegistryLabel] != "true" {
			continue
		}
		data, _, _ := unstructured.NestedStringMap(o.Object, "data")
		for key, text := range data {
			var entry struct {
				Name   string `json:"name"`
				Branch string `json:"branch"`
			}
			if err := json.Unmarshal([]byte(text), &entry); err != nil || entry.Name == "" || entry.Branch == "" {
				return nil, fmt.Errorf("repository registry %s, key %s: not an entry with a name and a branch", o.GetName(), key)
			}
			out[entry.Name] = entry.Branch
		}
	}
	return out, nil
}
