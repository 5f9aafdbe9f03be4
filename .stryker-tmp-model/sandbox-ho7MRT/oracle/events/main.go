// Command oracle-events answers, with Argo Events v1.9.11's own code, the questions agent-play's TypeScript
// answers on its own: the engine vectors (gjson, sjson, govaluate, text/template with Sprig, Go regexp,
// time.ParseDuration), whether a Sensor or EventSource is valid (pkg/reconciler/sensor.ValidateSensor,
// pkg/reconciler/eventsource.ValidateEventSource), the pods their controllers create under the restricted
// Pod Security level, and what a Sensor does with an event (pkg/sensors/dependencies.Filter,
// pkg/sensors/triggers.ApplyParams and its callers). scripts/oracle.ts runs it; the answers are committed
// under test/golden/ so that the tests need no Go.
//
//	oracle-events engines VECTORS_DIR GOLDEN_DIR
//	oracle-events answer REQUEST.json ANSWER.json
package main

import (
	"fmt"
	"os"

	"cdk8s-agent-play/oracle/shared"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: oracle-events engines VECTORS_DIR GOLDEN_DIR | answer REQUEST.json ANSWER.json")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "engines":
		err = writeGoldens(os.Args[2], os.Args[3])
	case "answer":
		err = answerFile(os.Args[2], os.Args[3])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "oracle-events: %v\n", err)
		os.Exit(1)
	}
}

func answerFile(requestPath, answerPath string) error {
	req, err := shared.ReadRequest(requestPath)
	if err != nil {
		return err
	}
	result := shared.Answer{GeneratedWith: generatedWith(), Objects: []shared.ObjectAnswer{}, SensorRuns: []shared.RunAnswer{}}
	for _, g := range req.Groups {
		objects, err := groupAnswers(g)
		if err != nil {
			return err
		}
		result.Objects = append(result.Objects, objects...)
	}
	for _, run := range req.SensorRuns {
		result.SensorRuns = append(result.SensorRuns, runSensor(run))
	}
	return shared.WriteJSON(answerPath, result)
}

// generatedWith names the Go version and the modules whose versions decide the answers.
func generatedWith() string {
	return shared.GeneratedWith([]string{
		"github.com/argoproj/argo-events",
		"github.com/tidwall/gjson",
		"github.com/tidwall/sjson",
		"github.com/Masterminds/sprig/v3",
		"github.com/Knetic/govaluate",
		"github.com/antonmedv/expr",
		"k8s.io/apimachinery",
		"k8s.io/pod-security-admission",
		"sigs.k8s.io/yaml",
	})
}
