/**
 * Where the oracle's answers are kept (test/golden/), and how a group of the upstream corpus is named in
 * them. A module of its own, with no imports of the oracle's inputs, so that the schema helpers can list the
 * corpus from its golden without loading the examples and syntheses the inputs need.
 */
// @ts-nocheck

import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/** The golden files, under test/golden/. */
export const GOLDEN_FILES = {
  groups: { corpus: 'oracle/corpus.json', platforms: 'oracle/platforms.json', fixtures: 'oracle/fixtures.json' },
  runs: 'oracle/sensor-runs.json',
  differences: 'oracle/differences.json',
} as const;

const GOLDEN_DIR = path.join(__dirname, 'golden');

export const readGolden = <T>(file: string): T => JSON.parse(readFileSync(path.join(GOLDEN_DIR, file), 'utf8')) as T;

/** The start of a corpus group's id: the group of `examples-workflows/x.yaml` is `corpus/examples-workflows/x.yaml`. */
export const CORPUS_GROUP_PREFIX = 'corpus/';

/** The id of the group of one corpus file (its path from `../shared/argo/`). */
export const corpusGroupId = (file: string): string => `${CORPUS_GROUP_PREFIX}${file}`;
