package shared

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	psaapi "k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"
)

// restrictedEvaluator is Pod Security admission's evaluator with the checks the API server runs.
var restrictedEvaluator = func() policy.Evaluator {
	evaluator, err := policy.NewEvaluator(policy.DefaultChecks())
	if err != nil {
		panic(err)
	}
	return evaluator
}()

// Restricted is what Pod Security admission forbids in a pod at the `restricted` level of its latest version,
// as "reason (detail)".
func Restricted(meta *metav1.ObjectMeta, spec *corev1.PodSpec) []string {
	level := psaapi.LevelVersion{Level: psaapi.LevelRestricted, Version: psaapi.LatestVersion()}
	result := policy.AggregateCheckResults(restrictedEvaluator.EvaluatePod(level, meta, spec))
	forbidden := []string{}
	if result.Allowed {
		return forbidden
	}
	for index, reason := range result.ForbiddenReasons {
		forbidden = append(forbidden, fmt.Sprintf("%s (%s)", reason, result.ForbiddenDetails[index]))
	}
	return forbidden
}
