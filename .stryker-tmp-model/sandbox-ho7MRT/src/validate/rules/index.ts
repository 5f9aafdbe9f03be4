/**
 * Every lint rule of `agent-play validate`, in the order they run. Each has a stable id, one negative fixture
 * under `test/fixtures/lint/<id>.yaml`, and a row in `docs/lint-rules.md`.
 */
// @ts-nocheck

import type { LintRule } from '../finding';
import { argumentsSuppliedRule, argumentValueRule } from './arguments';
import { cronScheduleRule } from './cron-workflow';
import { DAG_RULES } from './dag';
import { eventsNamespaceRule, sensorEventSourceRule } from './events-wiring';
import { integerRangeRule } from './integer-range';
import { objectSizeRule } from './object-size';
import { resourceTemplateRule } from './resource-template';
import { retryMaxDurationRule } from './retry-max-duration';
import { podSecurityRestrictedRule } from './pod-security';
import { SENSOR_DEPENDENCY_RULES } from './sensor-dependencies';
import { sensorGateExistsRule } from './sensor-gates';
import { remediatorStagesRule } from './remediator-stages';
import { SENSOR_TRIGGER_RULES } from './sensor-triggers';
import { pvcPruneProtectionRule, specLabelsRule } from './spec-labels';
import { TEMPLATE_FIELD_RULES } from './template-fields';
import { argoNamesRule } from './template-names';
import { templateReferenceRule } from './template-references';
import { templateTypeRule } from './template-type';
import { variableReferenceRule } from './variables';
import { sensorDuplicateDependencySourceRule } from './sensor-event-bus';
import { sensorTriggerAtLeastOnceRule } from './sensor-at-least-once';
import { eventsPodSecurityRule } from './events-pod-security';
import { claimPodDeadlineRule } from './claim-pod-deadline';
import { labelsFromVariableRule } from './labels-from-variable';
import { resourceCreateWaitRule } from './resource-create-wait';
import { argoResumeContinueOnRule } from './argo-resume-continue-on';
import { agentServiceAccountTokenRule } from './agent-service-account-token';
import { argoCliVersionRule } from './argo-cli-version';
import { duplicateObjectRule } from './duplicate-objects';

/** Every lint rule `agent-play validate` and `validatePlatform` run, in the order they report. */
export const LINT_RULES: readonly LintRule[] = [
  argoNamesRule,
  templateTypeRule,
  templateReferenceRule,
  ...DAG_RULES,
  variableReferenceRule,
  argumentsSuppliedRule,
  argumentValueRule,
  resourceTemplateRule,
  ...TEMPLATE_FIELD_RULES,
  cronScheduleRule,
  ...SENSOR_DEPENDENCY_RULES,
  ...SENSOR_TRIGGER_RULES,
  sensorGateExistsRule,
  remediatorStagesRule,
  sensorEventSourceRule,
  eventsNamespaceRule,
  specLabelsRule,
  pvcPruneProtectionRule,
  objectSizeRule,
  retryMaxDurationRule,
  podSecurityRestrictedRule,
  claimPodDeadlineRule,
  integerRangeRule,
  sensorDuplicateDependencySourceRule,
  sensorTriggerAtLeastOnceRule,
  eventsPodSecurityRule,
  labelsFromVariableRule,
  resourceCreateWaitRule,
  argoResumeContinueOnRule,
  agentServiceAccountTokenRule,
  argoCliVersionRule,
  duplicateObjectRule,
];
