/**
 * The remediation side of a platform, when a gate sends tasks back: the remediator WorkflowTemplate and its
 * service account, the `remediate` Sensor, and the `stale-work` Sensor (unless `cancelStaleWork` is off).
 */
// @ts-nocheck

import type { Construct } from 'constructs';
import type { PlatformConfig } from '../model/config-shapes';
import { remediationPlan } from './remediation';
import { RemediationKinds } from './remediator-contract';
import type { StageMachine } from '../model/stage-machine';
import type { IEventBus } from '../events/event-bus';
import type { IGithubEventSource } from '../events/github-event-source';
import { PlayRemediatorTemplate } from './play-remediator-template';
import { RemediationSensor } from './remediation-sensor';
import { REMEDIATOR_GRANTS } from '../rbac/events-rbac';
import { ScopedServiceAccount } from '../rbac/scoped-service-account';

/** The service account the remediator runs as. */
export const REMEDIATOR_SERVICE_ACCOUNT = 'agent-play-remediator';

/** What `addRemediation` needs from the platform. */
export interface RemediationObjectsProps {
  readonly config: PlatformConfig;
  readonly stages: StageMachine;
  readonly eventSource: IGithubEventSource;
  readonly eventBus: IEventBus;
  /** Makes the chart the objects go in (the platform's `remediation` file). */
  readonly chart: () => Construct;
}

/** The GitHub events the remediation Sensors need the EventSource to subscribe to. */
export function remediationEvents(config: PlatformConfig, stages: StageMachine): string[] {
  const plan = remediationPlan(stages.stages, config.agents, config.remediation);
  if (plan === undefined) return [];
  const conditions = plan.routes.flatMap((route) => route.conditions.map((condition) => condition.event));
  return [...conditions, ...(plan.staleRestartStage === undefined ? [] : ['push'])];
}

/** Adds the remediation objects to the `remediation` chart, or nothing when no gate sends tasks back. */
export function addRemediation(props: RemediationObjectsProps): void {
  const { config, stages } = props;
  const plan = remediationPlan(stages.stages, config.agents, config.remediation);
  if (plan === undefined) return;
  const chart = props.chart();
  new ScopedServiceAccount(chart, 'RemediatorRbac', { name: REMEDIATOR_SERVICE_ACCOUNT, grants: REMEDIATOR_GRANTS });
  new PlayRemediatorTemplate(chart, 'Remediator', {
    plan,
    runtimeImage: config.images.runtime,
    serviceAccountName: REMEDIATOR_SERVICE_ACCOUNT,
    strategy: config.events.resume,
  });
  const common = {
    plan,
    repositories: config.repositories,
    agents: config.agents,
    eventSource: props.eventSource,
    eventBus: props.eventBus,
    serviceAccountName: config.events.sensorServiceAccount,
    strategy: config.events.resume,
    triggerRetries: config.events.triggerRetries,
  };
  new RemediationSensor(chart, 'Remediate', { ...common, kind: RemediationKinds.remediate });
  if (plan.staleRestartStage !== undefined) new RemediationSensor(chart, 'StaleWork', { ...common, kind: RemediationKinds.staleWork });
}
