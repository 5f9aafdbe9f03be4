package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"cdk8s-agent-play/e2e/internal/platformkeys"
)

// registryEntry is what the harness reads of a repository's entry in the platform's repository registry
// (constructs/registry/registry-layout.ts): its name as GitHub spells it, its label value (the entry's
// key), and the play WorkflowTemplate that runs it.
type registryEntry struct {
	Name         string
	Label        string
	PlayTemplate string
}

// readRegistry parses the registry's ConfigMaps: one JSON entry per key, the key being the repository's
// label value as the platform computed it (constructs/model/naming.ts, repositoryLabelValue). Taking the
// label from there, not computing it again here, keeps one definition of the encoding.
func readRegistry(cms []corev1.ConfigMap) []registryEntry {
	var out []registryEntry
	eachEntry(cms, platformkeys.RepositoryRegistryLabel, func(key, text string) {
		var entry struct {
			Name         string `json:"name"`
			PlayTemplate string `json:"playTemplate"`
		}
		if json.Unmarshal([]byte(text), &entry) == nil && entry.Name != "" {
			out = append(out, registryEntry{Name: entry.Name, Label: key, PlayTemplate: entry.PlayTemplate})
		}
	})
	return out
}

// eachEntry visits every key of the ConfigMaps labelled label=true: the registry's and the progress
// records' ConfigMaps hold one JSON entry per key.
func eachEntry(cms []corev1.ConfigMap, label string, visit func(key, text string)) {
	for _, cm := range cms {
		if cm.Labels[label] != "true" {
			continue
		}
		for key, text := range cm.Data {
			visit(key, text)
		}
	}
}

// registryEntries reads the namespace's registry once: it does not change while a scenario runs.
func (r *Runner) registryEntries(ctx context.Context) ([]registryEntry, error) {
	if r.registry != nil {
		return r.registry, nil
	}
	list, err := r.env.Client.Kube.CoreV1().ConfigMaps(r.env.Namespace).List(ctx, metav1.ListOptions{LabelSelector: platformkeys.RepositoryRegistryLabel + "=true"})
	if err != nil {
		return nil, fmt.Errorf("read the repository registry: %w", err)
	}
	r.registry = readRegistry(list.Items)
	return r.registry, nil
}

// registryEntryOf is the registry's entry of a repository (owner/name in any letter case).
func (r *Runner) registryEntryOf(ctx context.Context, repo string) (registryEntry, error) {
	entries, err := r.registryEntries(ctx)
	if err != nil {
		return registryEntry{}, err
	}
	for _, e := range entries {
		if strings.EqualFold(e.Name, repo) {
			return e, nil
		}
	}
	return registryEntry{}, fmt.Errorf("repository %s is not in the platform's repository registry: add it to the repositories of the scenario's config (its entry's `config:` in e2e/scenarios.yaml)", repo)
}

// repositoryNamed gives the scenario's name of the repository whose label value a play carries, or the
// label itself when the registry (read once the first play was submitted) does not know it.
func (r *Runner) repositoryNamed(label string) string {
	for _, e := range r.registry {
		if e.Label != label {
			continue
		}
		for _, p := range r.sc.Plays {
			if strings.EqualFold(p.Repository, e.Name) {
				return p.Repository
			}
		}
		return e.Name
	}
	return label
}
