/**
 * The platforms agent-play synthesizes against Argo's own code (test/golden/oracle/, written by `npm run
 * oracle` from the Go programs of oracle/): `validate`'s verdict on every object is Argo's, or differs by a
 * rule of ours that is stricter on purpose (test/oracle-compare.ts, INTENDED), and the pods Pod Security
 * admission refuses are the ones our rules warn about; the simulator's sensor-runner passes the same
 * dependencies, fires the same triggers as often and creates the same objects as Argo Events on every
 * scenario of examples/scenarios, every @octokit/webhooks-examples payload and generated variations.
 *
 * The answers are committed, so no Go is needed here; an answer whose input changed is reported stale.
 */
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { allowed, type Difference, groupDifferences, ourReport, runDisagreements } from './oracle-compare';
import { GOLDEN_FILES, type GroupsGolden, readGolden, type RunsGolden } from './oracle-goldens';
import { EXAMPLE_APPS, exampleFiles, groupHash, type InputGroup, platformGroup, platforms, runHash, sensorRuns } from './oracle-inputs';

const STALE = 'the input changed since Argo answered: run npm run oracle (it needs Go 1.26 and ../shared/argo) and review the diff';

const allPlatforms = platforms();

/** The objects of Argo's API groups among a platform's files: Argo's own code decides each (and others beside). */
function argoObjectCount(group: InputGroup): number {
  const objects = group.files.flatMap((file) =>
    parseAllDocuments(file.text).map((document) => document.toJSON() as { apiVersion?: string } | null),
  );
  return objects.filter((object) => object?.apiVersion?.startsWith('argoproj.io/')).length;
}
const groups = allPlatforms.map(platformGroup);
const answers = readGolden<GroupsGolden>(GOLDEN_FILES.groups.platforms);
const listed = readGolden<{ differences: Difference[] }>(GOLDEN_FILES.differences).differences;

describe('the synthesized platforms, as Argo decides them', () => {
  it('covers every example app of examples/', () => {
    expect(Object.keys(EXAMPLE_APPS).sort()).toEqual(exampleFiles());
  });

  it('covers every platform Argo answered for, and no other', () => {
    expect(groups.map((group) => group.id).sort()).toEqual(Object.keys(answers.groups).sort());
    expect(groups.length).toBeGreaterThanOrEqual(7);
  });

  it.each(groups.map((group) => [group.id, group] as const))('%s: agrees with Argo, or differs as listed', (id, group) => {
    const answer = answers.groups[id];
    expect(answer?.sha256, STALE).toBe(groupHash(group));
    expect(answer.objects.length, 'objects Argo decided: every Argo object of the platform, and more').toBeGreaterThanOrEqual(
      argoObjectCount(group),
    );
    const differences = groupDifferences(group, answer, ourReport(group));
    expect(differences).toEqual(listed.filter((difference) => difference.group === id));
    expect(differences.filter((difference) => !allowed(difference))).toEqual([]);
  });
});

const runs = sensorRuns(allPlatforms);
const runAnswers = readGolden<RunsGolden>(GOLDEN_FILES.runs);

describe('Sensor runs: the simulator beside Argo Events', () => {
  it('covers every scenario, the octokit payloads and the variations, on every Sensor', () => {
    expect(runs.map((run) => run.id).sort()).toEqual(Object.keys(runAnswers.runs).sort());
    const events = runs.reduce((count, run) => count + run.events.length, 0);
    expect(events).toBeGreaterThan(2000);
    const firings = Object.values(runAnswers.runs).flatMap((run) =>
      run.events.flatMap((event) => event.triggers.flatMap((trigger) => trigger.firings)),
    );
    expect(firings.length, 'triggers Argo fired').toBeGreaterThan(50);
  });

  it.each(runs.map((run) => [run.id, run] as const))('%s', (id, run) => {
    const answer = runAnswers.runs[id];
    expect(answer?.sha256, STALE).toBe(runHash(run));
    expect(runDisagreements(run, answer)).toEqual([]);
  });
});
