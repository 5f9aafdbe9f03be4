/**
 * What the CEL rules of a schema said, kept in the user's cache folder (`cel/`, beside the parsed rules of
 * cel-parse-cache.ts), as ESLint's cache keeps what it found in a file that did not change:
 * - the problems the rules found in an object, keyed by the schema and the object's exact JSON;
 * - which rules of a schema cannot be evaluated here, keyed by the schema.
 *
 * Evaluating a rule is a pure function of its text, the value and the pinned @bufbuild/cel, so a kept
 * verdict is the verdict. A synthesis whose WorkflowTemplates did not change then loads no CEL library
 * and evaluates nothing: that was a tenth of `agent-play synth`. An object that changed by one byte is
 * evaluated again. The file keeps the most recent `LIMIT` verdicts and is named after the @bufbuild/cel
 * version and `FORMAT`; a missing, unreadable or stale file costs time, never an error.
 */
// @ts-nocheck

import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { pinnedVersion } from '../../pinned-version';
import { type StoredMap, storedMapInCache } from '../../stored-map';
import { jsonExact } from '../json-exact';
import type { SchemaProblem } from './schema-problem';

/**
 * Bump when cel-rules.ts or this file changes what a verdict holds (a message's text, which rules are
 * evaluated, how a list's items are named; v2: the API server's cost limits, `self` beside a list's item):
 * test/cel-verdict-cache.test.ts records both files' hashes as a reminder.
 */
export const CEL_VERDICT_FORMAT = 'cel-verdicts-v2';

/** Enough for every Argo object of a large platform and of Argo's own examples, small enough to read in a millisecond. */
const LIMIT = 2048;

function verdicts(): StoredMap {
  return storedMapInCache(path.join('cel', `${CEL_VERDICT_FORMAT}-${pinnedVersion('@bufbuild/cel')}.json`), LIMIT);
}

/** A verdict read back: a list of problems as `evaluate` gave them, or `undefined` for anything else. */
function problemsIn(value: unknown): SchemaProblem[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const problems = value.filter(
    (problem): problem is SchemaProblem =>
      problem !== null &&
      typeof problem === 'object' &&
      typeof problem.pointer === 'string' &&
      typeof problem.message === 'string' &&
      typeof problem.kind === 'string',
  );
  return problems.length === value.length ? problems : undefined;
}

function remembered(key: string, evaluate: () => SchemaProblem[]): SchemaProblem[] {
  const known = problemsIn(verdicts().get(key));
  if (known) return known;
  const found = evaluate();
  verdicts().set(key, found);
  return found;
}

/**
 * The problems the CEL rules of a schema find in `object`: kept ones when this schema (`schemaKey`, which
 * names the schema's content, not only its kind) met this very object before, else `evaluate()`'s.
 */
export function cachedCelProblems(schemaKey: string, object: unknown, evaluate: () => SchemaProblem[]): SchemaProblem[] {
  // `.nan` and `null`, say, have one JSON but need not get one verdict: such an object is evaluated every time.
  if (!jsonExact(object)) return evaluate();
  const json = JSON.stringify(object);
  const objectKey = createHash('sha256').update(schemaKey).update('\0').update(json).digest('hex').slice(0, 40);
  return remembered(`object:${objectKey}`, evaluate);
}

/** The problems that say which CEL rules of the schema `schemaKey` are not evaluated: kept, else `evaluate()`'s. */
export function cachedUnevaluatedRules(schemaKey: string, evaluate: () => SchemaProblem[]): SchemaProblem[] {
  return remembered(`unevaluated:${schemaKey}`, evaluate);
}

/** Writes the verdicts now rather than at exit (for tests, and long-lived processes). */
export function saveCelVerdicts(): void {
  verdicts().save();
}
