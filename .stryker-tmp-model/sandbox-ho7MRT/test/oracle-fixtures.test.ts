/**
 * The lint fixtures (test/fixtures/lint/) and the CRD cases (test/fixtures/oracle-crds/) against Argo's and
 * the API server's own code (test/golden/oracle/fixtures.json, written by `npm run oracle`): `validate`'s
 * verdict on every object is theirs, or differs by a rule of ours that is stricter on purpose
 * (test/oracle-compare.ts); for a CRD case, `--crds` refuses exactly the CRDs the API server refuses.
 */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import { allowed, type Difference, groupDifferences, ourReport } from './oracle-compare';
import { GOLDEN_FILES, type GroupsGolden, readGolden } from './oracle-goldens';
import { crdCaseGroups, groupHash, lintFixtureGroups } from './oracle-inputs';

const STALE = 'the input changed since Argo answered: run npm run oracle (it needs Go 1.26 and ../shared/argo) and review the diff';

const groups = [...lintFixtureGroups(), ...crdCaseGroups()];
const answers = readGolden<GroupsGolden>(GOLDEN_FILES.groups.fixtures);
const listed = readGolden<{ differences: Difference[] }>(GOLDEN_FILES.differences).differences;

describe('the lint fixtures and the CRD cases, as Argo and the API server decide them', () => {
  it('covers every fixture Argo answered for, and no other', () => {
    expect(groups.map((group) => group.id).sort()).toEqual(Object.keys(answers.groups).sort());
    expect(groups.filter((group) => group.id.startsWith('crd-case/')).length).toBeGreaterThanOrEqual(7);
  });

  it.each(groups.map((group) => [group.id, group] as const))('%s', (id, group) => {
    const answer = answers.groups[id];
    expect(answer?.sha256, STALE).toBe(groupHash(group));
    const differences = groupDifferences(group, answer, ourReport(group));
    expect(differences).toEqual(listed.filter((difference) => difference.group === id));
    expect(differences.filter((difference) => !allowed(difference))).toEqual([]);
  });
});
