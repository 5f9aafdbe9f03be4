/**
 * What each top-level section of `agent-play.yaml` is for: the comments of `agent-play config init` and the
 * descriptions of `agent-play config schema` both come from here, and a test holds it to the schema's keys.
 */
// @ts-nocheck

import type { PlatformConfig } from '../../constructs/model/config-schema';
import { DEFAULT_AGENTS, DEFAULT_CLIS } from '../../constructs/model/default-config';

export const CONFIG_SECTIONS: Readonly<Record<keyof PlatformConfig, string>> = {
  namespace: 'The namespace of everything the platform runs: plays, Sensors, the EventSource, workspaces.',
  repositories:
    'The repositories agents work on. Each gets its own play WorkflowTemplate (play-{service}) and workspaces; agentClis binds an agent to another CLI in this repository only.',
  agents: `The agent registry, merged over the built-in agents (${Object.keys(DEFAULT_AGENTS).join(', ')}): add an agent, or change one field of one (agents: { cleo: { cli: codex } }). AGENT_PLAY_CLI_<AGENT>=<cli> in the environment overrides an agent's CLI.`,
  clis: `The CLI registry, merged over the built-in CLIs (${Object.keys(DEFAULT_CLIS).join(', ')}): each with a pinned image.`,
  stages:
    'The stage machine, in order: agent stages (agent, or agents for parallel ones; optional when: { parameter, in }), gates (released by GitHub events: event, actions, label, reviewState, merged, by) and one end stage.',
  workspace: 'The workspace claims agents keep their clones in: size and storage class.',
  play: 'How plays run: deadline, how long finished Workflows are kept, the service account, extra play parameters (with defaults) that stages can test in when.',
  images: 'The helper images: kubectl (bash, kubectl, jq) for progress and releases, argo for resumes.',
  events:
    'The GitHub side: the resume strategy (label-selector or workflow-name), the EventBus, the EventSource webhook and its secret, trigger retries, the service accounts.',
  execution:
    'How agent stages run: coderun (each stage creates a CodeRun for the CodeRun controller) or direct (each stage runs the agent CLI itself in an Argo step: only Argo Workflows and Argo Events needed). An agent may override it (agents: { rex: { execution: coderun } }).',
  direct:
    'Direct execution: the default CPU and memory requests and limits of every direct agent container (an agent overrides them with agents.X.resources).',
  remediation:
    'Remediation rounds: maxRounds (a request for changes in the last round fails the play) and cancelStaleWork (a push by the implementation agent re-runs the stale quality and testing work). A gate sends tasks back with its remediate: conditions.',
  projects:
    'Projects: tasks of one repository run as child plays in dependency order (tasks: [{ id, dependsOn, parameters }], parallelism).',
};
