// Command oracle-workflows answers, with Argo Workflows' and Kubernetes' own code, whether the objects
// agent-play validates are valid: Workflow, WorkflowTemplate, ClusterWorkflowTemplate and CronWorkflow with
// github.com/argoproj/argo-workflows/v4/workflow/validate as `argo lint` and the server call it (templates
// resolved through the WorkflowTemplates of the same group), the pods of their templates under the
// restricted Pod Security level, and custom resources and CustomResourceDefinitions with
// k8s.io/apiextensions-apiserver as the API server checks them. scripts/oracle.ts runs it with the same
// request as oracle-events; the answers are committed under test/golden/ so that the tests need no Go.
//
//	oracle-workflows answer REQUEST.json ANSWER.json
package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"cdk8s-agent-play/oracle/shared"
)

func main() {
	if len(os.Args) != 4 || os.Args[1] != "answer" {
		fmt.Fprintln(os.Stderr, "usage: oracle-workflows answer REQUEST.json ANSWER.json")
		os.Exit(2)
	}
	if err := answerFile(os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintf(os.Stderr, "oracle-workflows: %v\n", err)
		os.Exit(1)
	}
}

func answerFile(requestPath, answerPath string) error {
	req, err := shared.ReadRequest(requestPath)
	if err != nil {
		return err
	}
	upstream, err := upstreamCRDs(req.CRDs)
	if err != nil {
		return err
	}
	result := shared.Answer{GeneratedWith: generatedWith(), Objects: []shared.ObjectAnswer{}, SensorRuns: []shared.RunAnswer{}}
	for _, g := range req.Groups {
		objects, err := groupAnswers(g, upstream)
		if err != nil {
			return err
		}
		result.Objects = append(result.Objects, objects...)
	}
	return shared.WriteJSON(answerPath, result)
}

// generatedWith names the Go version and the modules whose versions decide the answers.
func generatedWith() string {
	return shared.GeneratedWith([]string{
		"github.com/argoproj/argo-workflows/v4",
		"k8s.io/apiextensions-apiserver",
		"k8s.io/apiserver",
		"k8s.io/apimachinery",
		"k8s.io/pod-security-admission",
		"github.com/google/cel-go",
		"sigs.k8s.io/yaml",
	})
}

// kindKey names a kind of a group, as CRDs are found.
func kindKey(group, kind string) string { return group + "/" + kind }

// upstreamCRDs are the Argo Workflows CRDs the request carries, by kind.
func upstreamCRDs(files []shared.InputFile) (map[string]*crdKind, error) {
	found := map[string]*crdKind{}
	for _, file := range files {
		docs, err := shared.Documents(file)
		if err != nil {
			return nil, err
		}
		for _, doc := range docs {
			kind, problems, err := crdDocument(doc)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", file.Name, err)
			}
			if len(problems) > 0 {
				return nil, fmt.Errorf("%s: the API server refuses this CRD: %v", file.Name, problems)
			}
			found[kindKey(kind.group, kind.kind)] = kind
		}
	}
	return found, nil
}

// eventsKinds are decided by oracle-events.
var eventsKinds = map[string]bool{"Sensor": true, "EventSource": true, "EventBus": true}

func groupAnswers(g shared.Group, upstream map[string]*crdKind) ([]shared.ObjectAnswer, error) {
	docs, err := shared.GroupDocuments(g)
	if err != nil {
		return nil, err
	}
	kinds := map[string]*crdKind{}
	for key, kind := range upstream {
		kinds[key] = kind
	}
	answers := []shared.ObjectAnswer{}
	for _, doc := range docs {
		if doc.Type.APIVersion != "apiextensions.k8s.io/v1" || doc.Type.Kind != "CustomResourceDefinition" {
			continue
		}
		answer := shared.NewObjectAnswer(g.ID, doc)
		answer.Metadata = nil // a CRD's name is checked by the CRD's own validation
		kind, problems, err := crdDocument(doc)
		switch {
		case err != nil:
			answer.Decode = err.Error()
		case len(problems) > 0:
			answer.Schema = problems
		default:
			kinds[kindKey(kind.group, kind.kind)] = kind
		}
		answers = append(answers, answer)
	}
	found := groupTemplates(docs)
	for _, doc := range docs {
		group := groupOf(doc.Type.APIVersion)
		argo := doc.Type.APIVersion == "argoproj.io/v1alpha1"
		if (argo && eventsKinds[doc.Type.Kind]) || doc.Type.Kind == "CustomResourceDefinition" {
			continue
		}
		kind, hasCRD := kinds[kindKey(group, doc.Type.Kind)]
		isWorkflow := argo && workflowKinds[doc.Type.Kind]
		if !hasCRD && !isWorkflow {
			if nearKnownKind(doc, kinds) {
				// kubectl finds no resource for it (kinds and versions are matched case-sensitively).
				answer := shared.NewObjectAnswer(g.ID, doc)
				answer.Schema = []string{fmt.Sprintf("no matches for kind %q in version %q", doc.Type.Kind, doc.Type.APIVersion)}
				answers = append(answers, answer)
			}
			continue
		}
		answer := shared.NewObjectAnswer(g.ID, doc)
		if hasCRD {
			answer.Schema = slices.DeleteFunc(kind.check(doc), func(problem string) bool { return slices.Contains(answer.Metadata, problem) })
		}
		if isWorkflow {
			workflowVerdict(&answer, doc, found)
		}
		answers = append(answers, answer)
	}
	return answers, nil
}

// nearKnownKind says whether an object the API server has no kind for names, but for case, a group or
// kind it has: the mistakes the oracle is asked about (`argoproj.io/V1alpha1`, `kind: workflowtemplate`).
func nearKnownKind(doc shared.Document, kinds map[string]*crdKind) bool {
	group, kind := strings.ToLower(groupOf(doc.Type.APIVersion)), strings.ToLower(doc.Type.Kind)
	if group == "argoproj.io" {
		for known := range workflowKinds {
			if strings.ToLower(known) == kind {
				return true
			}
		}
		for known := range eventsKinds {
			if strings.ToLower(known) == kind {
				return true
			}
		}
	}
	for _, known := range kinds {
		if strings.ToLower(known.group) == group && strings.ToLower(known.kind) == kind {
			return true
		}
	}
	return false
}

// groupOf is the API group of an apiVersion ("" for the core group).
func groupOf(apiVersion string) string {
	for index := range apiVersion {
		if apiVersion[index] == '/' {
			return apiVersion[:index]
		}
	}
	return ""
}
