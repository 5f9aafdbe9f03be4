package upstream

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func configMap(data map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{"kind": "ConfigMap", "data": data}}
}

func TestControllerConfigWritesOneDataKeyPerSetting(t *testing.T) {
	cm := configMap(map[string]any{"executor": "..."})
	cfg := ControllerConfig{TemplateReferencing: "Strict", NamespaceParallelism: 1}
	if err := cfg.apply(cm); err != nil {
		t.Fatal(err)
	}
	data, _, _ := unstructured.NestedStringMap(cm.Object, "data")
	if data["workflowRestrictions"] != "templateReferencing: Strict\n" || data["namespaceParallelism"] != "1" || data["executor"] != "..." {
		t.Errorf("data = %v", data)
	}
	if got := cfg.String(); got != "templateReferencing: Strict, namespaceParallelism: 1" {
		t.Errorf("String = %q", got)
	}
}

func TestControllerConfigOfTheDefaultsWritesNothing(t *testing.T) {
	cm := configMap(map[string]any{})
	if err := (ControllerConfig{}).apply(cm); err != nil {
		t.Fatal(err)
	}
	if data, _, _ := unstructured.NestedStringMap(cm.Object, "data"); len(data) != 0 {
		t.Errorf("data = %v; want none", data)
	}
	if got := (ControllerConfig{}).String(); got != "default" {
		t.Errorf("String = %q; want default", got)
	}
	if got := (ControllerConfig{NamespaceParallelism: 2}).String(); got != "namespaceParallelism: 2" {
		t.Errorf("String = %q", got)
	}
}

func TestControllerConfigRefusesAKeyUpstreamSetsAlready(t *testing.T) {
	cm := configMap(map[string]any{"namespaceParallelism": "10"})
	err := ControllerConfig{NamespaceParallelism: 1}.apply(cm)
	if err == nil || !strings.Contains(err.Error(), "sets namespaceParallelism already") {
		t.Errorf("apply = %v; want a refusal naming namespaceParallelism", err)
	}
}

func TestControllerConfigValidate(t *testing.T) {
	for _, c := range []struct {
		cfg  ControllerConfig
		want string
	}{
		{ControllerConfig{}, ""},
		{ControllerConfig{TemplateReferencing: "Secure", NamespaceParallelism: 3}, ""},
		{ControllerConfig{TemplateReferencing: "strict"}, `controller.templateReferencing: "strict" is not Strict or Secure`},
		{ControllerConfig{NamespaceParallelism: -1}, "controller.namespaceParallelism: -1 is negative"},
	} {
		err := c.cfg.Validate()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("Validate(%+v) = %v; want nil", c.cfg, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("Validate(%+v) = %v; want %q", c.cfg, err, c.want)
		}
	}
}
