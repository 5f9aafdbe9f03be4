/**
 * Every step of the runtime program, by name: what `node runtime.cjs STEP` runs. The templates that run a
 * step import it from its protocol's folder; this list is only for the program and its tests.
 */
// @ts-nocheck

import { gateCheckStep } from '../constructs/gate/gate-check-step';
import { findStartStep, startPlayStep, waitPlayStep } from '../constructs/project/project-steps';
import { enterStageStep, recordExitStep } from '../constructs/progress/progress-steps';
import { decideStep } from '../constructs/remediation/decide-step';
import { resolveRepositoryStep } from '../constructs/registry/resolve-repository-step';
import { exhaustedStep, replaceStep, stopStep } from '../constructs/remediation/replace-steps';
import { resumeGateStep } from '../constructs/resumer/resume-gate-step';
import type { AnyRuntimeStep } from '../constructs/runtime/runtime-step';
import { cancelCodeRunsStep } from '../constructs/workflows/cancel-coderuns-step';

export const RUNTIME_STEPS: readonly AnyRuntimeStep[] = [
  resolveRepositoryStep,
  enterStageStep,
  recordExitStep,
  gateCheckStep,
  resumeGateStep,
  cancelCodeRunsStep,
  decideStep,
  stopStep,
  replaceStep,
  exhaustedStep,
  findStartStep,
  startPlayStep,
  waitPlayStep,
];
