/**
 * Size limits of the objects the platform emits, defined once for the config check (which names the field
 * to shorten) and the `object-size` lint rule (which checks what was built, and any manifest given to
 * `validate`).
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import type { PlatformConfig } from './config-shapes';
import { systemPromptKey } from './naming';

/** The most data a ConfigMap or Secret may hold (Kubernetes `MaxSecretSize`, applied to both). */
export const MAX_DATA_BYTES = 1024 * 1024;

/** The most an object may weigh for ArgoCD's client-side apply: the 256 KiB that annotations may hold. */
export const MAX_CLIENT_SIDE_APPLY_BYTES = 256 * 1024;

/**
 * Room kept for the agents ConfigMap's `agents.yaml` (the registry without prompts) and each prompt's front
 * matter: far more than a registry of a hundred agents needs, so a config that passes always builds.
 */
const REGISTRY_ALLOWANCE_BYTES = 64 * 1024;

const utf8Bytes = (text: string): number => new TextEncoder().encode(text).length;

/**
 * The agents ConfigMap holds every agent's system prompt: when they do not fit in one ConfigMap, the problem
 * is reported at the largest prompt, the field to shorten.
 */
export function agentsConfigMapProblems(config: PlatformConfig): { path: (string | number)[]; message: string }[] {
  const prompts = Object.entries(config.agents).map(([agent, settings]) => ({
    agent,
    bytes: utf8Bytes(settings.systemPrompt) + utf8Bytes(systemPromptKey(settings.githubApp)),
  }));
  const total = prompts.reduce((sum, prompt) => sum + prompt.bytes, 0);
  if (total + REGISTRY_ALLOWANCE_BYTES <= MAX_DATA_BYTES) return [];
  const largest = prompts.reduce((big, prompt) => (prompt.bytes > big.bytes ? prompt : big));
  const kib = (bytes: number): string => `${Math.ceil(bytes / 1024)} KiB`;
  return [
    {
      path: ['agents', largest.agent, 'systemPrompt'],
      message: `the system prompts add up to ${kib(total)} (this one ${kib(largest.bytes)}), more than the ${kib(MAX_DATA_BYTES - REGISTRY_ALLOWANCE_BYTES)} the agents ConfigMap can hold within Kubernetes' 1 MiB: shorten the prompts`,
    },
  ];
}
