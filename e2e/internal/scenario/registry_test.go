package scenario

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"cdk8s-agent-play/e2e/internal/platformkeys"
)

func registryConfigMaps() []corev1.ConfigMap {
	return []corev1.ConfigMap{
		{
			ObjectMeta: metav1.ObjectMeta{Name: "play-repositories-3", Labels: map[string]string{platformkeys.RepositoryRegistryLabel: "true"}},
			Data: map[string]string{
				"5dlabs.cto-play-test": `{"name":"5dlabs/cto-play-test","playTemplate":"play"}`,
				"octo.web-h4sh":        `{"name":"Octo/Web","playTemplate":"play-web"}`,
				"broken":               `{"name":`,
			},
		},
		// Not the registry's: an entry-shaped value in another ConfigMap is no entry.
		{ObjectMeta: metav1.ObjectMeta{Name: "other"}, Data: map[string]string{"x.y": `{"name":"x/y","playTemplate":"play"}`}},
	}
}

func TestReadRegistryTakesTheLabelFromTheEntrysKey(t *testing.T) {
	r := &Runner{sc: &Scenario{Plays: []Play{{Repository: "octo/web"}}}, registry: readRegistry(registryConfigMaps())}
	if len(r.registry) != 2 {
		t.Fatalf("entries = %+v; want the two of the registry's ConfigMap, not the broken one nor another ConfigMap's", r.registry)
	}
	entry, err := r.registryEntryOf(context.Background(), "OCTO/WEB")
	if err != nil || entry.Label != "octo.web-h4sh" || entry.PlayTemplate != "play-web" {
		t.Errorf("registryEntryOf(OCTO/WEB) = %+v, %v; want the label octo.web-h4sh and template play-web", entry, err)
	}
	if _, err := r.registryEntryOf(context.Background(), "x/y"); err == nil || !strings.Contains(err.Error(), "add it to the repositories") {
		t.Errorf("registryEntryOf(x/y) = %v; want no entry from outside the registry, and an error that says what to change", err)
	}
	// The scenario's spelling wins over the registry's, so outcomes compare with the simulator's.
	if got := r.repositoryNamed("octo.web-h4sh"); got != "octo/web" {
		t.Errorf("repositoryNamed(octo.web-h4sh) = %q; want the scenario's octo/web", got)
	}
	if got := r.repositoryNamed("5dlabs.cto-play-test"); got != "5dlabs/cto-play-test" {
		t.Errorf("repositoryNamed(5dlabs.cto-play-test) = %q; want the registry's name", got)
	}
	if got := r.repositoryNamed("unknown.repo"); got != "unknown.repo" {
		t.Errorf("repositoryNamed(unknown.repo) = %q; want the label itself", got)
	}
}
