/**
 * What an event helper (the resumer, the remediator) checks first of an event: that its repository is one
 * of the platform's and its pull request merges into that repository's branch, and how to find the task's
 * play. The Sensors filter on the repository too, but only as a first sieve kept small whatever the number
 * of repositories (constructs/events/repository-filter.ts): they name the repositories while that fits a
 * budget, else their owners, else none, and check the base branch only when every repository has the same
 * one. So an event of a repository the platform does not run, or into another branch, can get here: the
 * registry decides.
 *
 * Pure: no cdk8s, no I/O.
 */
import { playWorkflowName } from '../model/play-contract';
import type { PlayStrategy } from '../runtime/live-plays';
import type { StepContext } from '../runtime/runtime-step';
import { readRegistryEntry } from './registry-reader';
import type { RegistryEntry } from './registry-layout';

/** The event's repository as the platform knows it, or why the event is not for the platform. */
export type EventRepository = { readonly entry: RegistryEntry; readonly playName: string } | { readonly ignored: string };

/**
 * The registry entry of the event's repository and the name of the task's play under the strategy (empty for
 * `label-selector`), or why the event is ignored.
 */
export async function eventRepository(
  context: StepContext,
  event: { namespace: string; repository: string; task: number; baseBranch: string; strategy: PlayStrategy },
): Promise<EventRepository> {
  const entry = await readRegistryEntry(context, event.namespace, event.repository);
  if (entry === undefined) return { ignored: `repository ${event.repository} is not one of the platform's: nothing to do` };
  if (event.baseBranch !== '' && event.baseBranch !== entry.branch)
    return {
      ignored: `the pull request merges into ${event.baseBranch}, not into ${entry.branch} (the branch of ${entry.name}): nothing to do`,
    };
  return { entry, playName: event.strategy === 'workflow-name' ? playWorkflowName(entry.service, event.task) : '' };
}
