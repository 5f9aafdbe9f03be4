package scenario

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"cdk8s-agent-play/e2e/internal/kube"
	"cdk8s-agent-play/e2e/internal/platformkeys"
)

// How much of a Workflow's history a diagnosis shows: its first writes and controller lines, where a
// label goes missing (the first operation of the controller, the play's first step).
const (
	diagnosisWrites          = 12
	diagnosisControllerLines = 14
)

// unlabelledPlays are the Workflows of the list that may be plays the play selector missed: those without
// a workflow-type label, or with the play's. At most three, by name.
func unlabelledPlays(items []unstructured.Unstructured, matched map[string]bool) []*unstructured.Unstructured {
	var out []*unstructured.Unstructured
	for i := range items {
		w := &items[i]
		kind := w.GetLabels()[platformkeys.PlayLabelWorkflowType]
		if matched[w.GetName()] || (kind != "" && kind != platformkeys.WorkflowTypePlay) {
			continue
		}
		out = append(out, w)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GetName() < out[j].GetName() })
	if len(out) > 3 {
		out = out[:3]
	}
	return out
}

// diagnose tells how a Workflow's labels came to be: every label, which field manager set which label
// (managedFields), the service accounts' first writes to it (the API server's audit log) and the workflow
// controller's first lines about it. The CI log keeps only its end, where the harness prints a failure.
func (r *Runner) diagnose(w *unstructured.Unstructured) []string {
	name := w.GetName()
	lines := []string{fmt.Sprintf("    %s labels: %s", name, labelsText(w.GetLabels()))}
	for _, m := range managedLabels(w) {
		lines = append(lines, "      managed: "+m)
	}
	if r.env.Audit != nil {
		writes, err := r.env.Audit.Writes(kube.WorkflowResource.Group, kube.WorkflowResource.Resource, r.env.Namespace, name)
		if err != nil {
			lines = append(lines, "      writes: the audit log could not be read: "+err.Error())
		}
		lines = append(lines, firstOf("writes", writes, diagnosisWrites)...)
	}
	if r.env.ControllerLogs != "" {
		found, err := controllerLines(r.env.ControllerLogs, name, diagnosisControllerLines)
		if err != nil {
			lines = append(lines, "      controller: its log could not be read: "+err.Error())
		}
		for _, l := range found {
			lines = append(lines, "      controller: "+l)
		}
	}
	return lines
}

// firstOf gives the first n entries, each on a line of its own, and how many more there were.
func firstOf(what string, entries []string, n int) []string {
	var out []string
	for i, e := range entries {
		if i == n {
			out = append(out, fmt.Sprintf("      %s: ... %d more", what, len(entries)-n))
			break
		}
		out = append(out, fmt.Sprintf("      %s: %s", what, e))
	}
	return out
}

// labelsText is every label as key=value, sorted.
func labelsText(labels map[string]string) string {
	if len(labels) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + labels[k]
	}
	return strings.Join(parts, " ")
}

// managedLabels is, for each field manager of the object, its operation, when it last wrote, and the
// label keys it owns.
func managedLabels(w *unstructured.Unstructured) []string {
	var out []string
	for _, m := range w.GetManagedFields() {
		var keys []string
		if m.FieldsV1 != nil {
			keys = ownedLabelKeys(m.FieldsV1.Raw)
		}
		when := ""
		if m.Time != nil {
			when = m.Time.UTC().Format("15:04:05")
		}
		owned := "no label"
		if len(keys) > 0 {
			owned = "labels " + strings.Join(keys, " ")
		}
		out = append(out, fmt.Sprintf("%s %s %s: %s", m.Manager, m.Operation, when, owned))
	}
	return out
}

// ownedLabelKeys reads the label keys of a managedFields entry's fieldsV1 document
// ({"f:metadata":{"f:labels":{"f:KEY":{}}}}), sorted.
func ownedLabelKeys(raw []byte) []string {
	var fields struct {
		Metadata struct {
			Labels map[string]json.RawMessage `json:"f:labels"`
		} `json:"f:metadata"`
	}
	if json.Unmarshal(raw, &fields) != nil {
		return nil
	}
	var keys []string
	for k := range fields.Metadata.Labels {
		if key, ok := strings.CutPrefix(k, "f:"); ok {
			keys = append(keys, key)
		}
	}
	sort.Strings(keys)
	return keys
}

// controllerLines are the workflow controller's first lines about a Workflow that tell what happened to
// it (its phase, its updates, warnings and errors), from every controller log the glob finds (a restarted
// controller writes a new one), shortened to time, level, message and error.
func controllerLines(glob, name string, n int) ([]string, error) {
	files, err := filepath.Glob(glob)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, file := range files {
		found, err := linesAbout(file, name)
		if err != nil {
			return out, err
		}
		out = append(out, found...)
	}
	sort.Strings(out)
	if len(out) > n {
		out = append(out[:n], fmt.Sprintf("... %d more", len(out)-n))
	}
	return out, nil
}

var (
	logTime    = regexp.MustCompile(`time=\S*T(\d\d:\d\d:\d\d\.\d{3})`)
	logLevel   = regexp.MustCompile(`level=(\w+)`)
	logMessage = regexp.MustCompile(`msg="([^"]*)"`)
	logError   = regexp.MustCompile(`error="((?:[^"\\]|\\.)*)"`)
	logVersion = regexp.MustCompile(`resourceVersion=(\d+)`)
)

// telling is whether a controller line says something a label's fate depends on.
func telling(line string) bool {
	if strings.Contains(line, "level=WARN") || strings.Contains(line, "level=ERROR") {
		return true
	}
	for _, m := range []string{"Processing workflow", "Workflow update successful", "updated phase", "Re-applying", "Update retry", "Failed to re-apply"} {
		if strings.Contains(line, m) {
			return true
		}
	}
	return false
}

// linesAbout reads one log's telling lines about the Workflow, shortened.
func linesAbout(file, name string) ([]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	mark := "workflow=" + name
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		i := strings.Index(line, mark)
		if i < 0 || (i+len(mark) < len(line) && line[i+len(mark)] != ' ') || !telling(line) {
			continue
		}
		out = append(out, shorten(line))
	}
	return out, sc.Err()
}

// shorten keeps a controller line's time, level, message, resource version and error.
func shorten(line string) string {
	parts := []string{}
	for _, re := range []*regexp.Regexp{logTime, logLevel, logMessage} {
		if m := re.FindStringSubmatch(line); m != nil {
			parts = append(parts, m[1])
		}
	}
	if m := logVersion.FindStringSubmatch(line); m != nil {
		parts = append(parts, "rv "+m[1])
	}
	if m := logError.FindStringSubmatch(line); m != nil {
		e := m[1]
		if len(e) > 160 {
			e = e[:160] + "..."
		}
		parts = append(parts, "error: "+e)
	}
	return strings.Join(parts, " ")
}
