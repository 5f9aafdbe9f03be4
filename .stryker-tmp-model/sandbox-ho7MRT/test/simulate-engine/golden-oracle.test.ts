/**
 * The simulator's engines and the validator's Go checks against what real Go answered for the same vectors
 * (test/golden/*.json, written by oracle/events through `npm run oracle`). An answer must be Go's,
 * value for value and error for error. The one way out is a refusal (UnsupportedFeatureError), allowed only
 * where the vector names it with `"refused"`: a refusal nobody documented fails, and so does a documented one
 * the engine no longer makes on any of the vector's runs.
 *
 * The oracle is Go 1.26 with the libraries at the versions Argo Events v1.9.11 pins (oracle/events/go.mod),
 * the Go Argo Events builds with; each golden's `generatedWith` names them.
 */
// @ts-nocheck

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gjsonGet, gjsonString } from '../../src/simulate/engine/gjson';
import { goJson } from '../../src/simulate/engine/go-format';
import { renderGoTemplate } from '../../src/simulate/engine/go-template';
import { evaluateExpr } from '../../src/simulate/engine/govaluate';
import { goRegexpCompileError, goRegexpFind, goRegexpMatch, goReplaceAll } from '../../src/simulate/engine/re2';
import { sjsonSet, sjsonSetRaw } from '../../src/simulate/engine/sjson';
import { UnsupportedFeatureError } from '../../src/simulate/engine/unsupported';
import { goDurationNanoseconds, isGoDuration } from '../../src/validate/rules/go-duration';
import { goRegexpProblem } from '../../src/validate/rules/go-regexp';

const GOLDEN_DIR = join(__dirname, '..', 'golden');
const ENGINES = ['regexp', 'template', 'gjson', 'govaluate', 'duration', 'sjson'] as const;

interface Golden {
  readonly engine: string;
  readonly vectorsSha256: string;
  readonly results: any[];
}

const vectorBytes = (engine: string) => readFileSync(join(GOLDEN_DIR, 'vectors', `${engine}.json`));
const vectors = (engine: string): any => JSON.parse(vectorBytes(engine).toString('utf8'));
const golden = (engine: string): Golden => JSON.parse(readFileSync(join(GOLDEN_DIR, `${engine}.json`), 'utf8'));

type Outcome = { kind: 'value'; value: unknown } | { kind: 'error'; message: string } | { kind: 'refused'; message: string };

function outcome(run: () => unknown): Outcome {
  try {
    return { kind: 'value', value: run() };
  } catch (error) {
    if (error instanceof UnsupportedFeatureError) return { kind: 'refused', message: error.message };
    return { kind: 'error', message: (error as Error).message };
  }
}

/** The documented refusal of a vector (`"refused": "why"`), keyed by the vector's text. */
function refusals(cases: readonly any[], key: string): Map<string, string> {
  return new Map(cases.filter((item) => typeof item.refused === 'string').map((item) => [item[key], item.refused]));
}

/**
 * Compares one engine answer with Go's: `expected` is a value, or `{ error }` for a Go error (any message:
 * the engines word their own errors). A refusal must be documented, and a documented one must happen.
 */
const refusalsSeen = new Set<string>();

function expectLikeGo(label: string, actual: Outcome, expected: { value: unknown } | { error: string }, refused: string | undefined): void {
  if (refused !== undefined && actual.kind === 'refused') {
    refusalsSeen.add(refused);
    return;
  }
  expect(actual.kind === 'refused' ? actual.message : '', `${label}: refused without a documented reason in the vectors`).toBe('');
  if ('error' in expected) {
    expect(actual, `${label}: Go fails with ${expected.error}`).toMatchObject({ kind: 'error' });
  } else {
    expect(actual, label).toEqual({ kind: 'value', value: expected.value });
  }
}

describe('the goldens are the ones of the current vectors', () => {
  it.each(ENGINES)('%s: golden file made from these very vectors (else run `npm run oracle`)', (engine) => {
    const hash = createHash('sha256').update(vectorBytes(engine)).digest('hex');
    expect(
      golden(engine).vectorsSha256,
      `test/golden/${engine}.json is older than test/golden/vectors/${engine}.json: run npm run oracle`,
    ).toBe(hash);
  });
});

describe('Go regexp (re2js) against Go', () => {
  const results = golden('regexp').results;
  const documented = refusals(vectors('regexp').cases, 'pattern');

  it('covers hundreds of vectors, refused patterns included', () => {
    const runs = results.reduce((sum, result) => sum + (result.runs?.length ?? 1), 0);
    expect(runs).toBeGreaterThan(300);
    expect(results.filter((result) => result.error).length).toBeGreaterThan(20);
  });

  it.each(results.map((result) => [result.pattern, result] as const))('%s', (pattern, result) => {
    const vector = vectors('regexp').cases.find((item: any) => item.pattern === pattern);
    expect(goRegexpCompileError(pattern), 'compile error as Go words it').toBe(result.error);
    // The validator says a pattern is wrong exactly when Go refuses to compile it.
    expect(goRegexpProblem(pattern) !== undefined, 'validator verdict').toBe(result.error !== undefined);
    const templates: string[] = vector.templates ?? vectors('regexp').defaultTemplates;
    for (const run of result.runs ?? []) {
      const label = `${pattern} on ${JSON.stringify(run.input)}`;
      expectLikeGo(
        `${label} match`,
        outcome(() => goRegexpMatch(pattern, run.input)),
        { value: run.match },
        documented.get(pattern),
      );
      expectLikeGo(
        `${label} find`,
        outcome(() => goRegexpFind(pattern, run.input)),
        { value: run.find },
        documented.get(pattern),
      );
      templates.forEach((template, index) => {
        expectLikeGo(
          `${label} replace ${template}`,
          outcome(() => goReplaceAll(pattern, run.input, template)),
          { value: run.replace[index] },
          documented.get(pattern),
        );
      });
    }
  });
});

describe('text/template with Sprig against Go', () => {
  const { data } = vectors('template');
  const results = golden('template').results;
  const documented = refusals(vectors('template').cases, 'template');

  it('covers hundreds of vectors, errors included', () => {
    expect(results.length).toBeGreaterThan(300);
    expect(results.filter((result) => result.parseError || result.execError).length).toBeGreaterThan(30);
  });

  it.each(results.map((result) => [`${result.template} with ${result.data}`, result] as const))('%s', (label, result) => {
    const expected = result.output !== undefined ? { value: result.output } : { error: result.parseError ?? result.execError };
    expectLikeGo(
      label,
      outcome(() => renderGoTemplate(result.template, { Input: data[result.data] })),
      expected,
      documented.get(result.template),
    );
  });
});

describe('gjson against Go', () => {
  const { documents } = vectors('gjson');
  const results = golden('gjson').results;
  const documented = refusals(vectors('gjson').cases, 'path');

  it('covers hundreds of vectors', () => expect(results.length).toBeGreaterThan(250));

  it.each(results.map((result) => [`${result.path} in ${result.document}`, result] as const))('%s', (label, result) => {
    const answer = outcome(() => {
      const found = gjsonGet(documents[result.document], result.path);
      return {
        exists: found.exists,
        string: gjsonString(found),
        raw: found.raw,
        value: found.exists ? goJson(found.value ?? null) : 'null',
      };
    });
    expectLikeGo(
      label,
      answer,
      { value: { exists: result.exists, string: result.string, raw: result.raw, value: result.value } },
      documented.get(result.path),
    );
  });
});

describe('govaluate against Go', () => {
  const { parameters } = vectors('govaluate');
  const results = golden('govaluate').results;
  const documented = refusals(vectors('govaluate').cases, 'expr');

  it('covers hundreds of vectors, errors included', () => {
    expect(results.length).toBeGreaterThan(250);
    expect(results.filter((result) => result.error).length).toBeGreaterThan(30);
  });

  it.each(results.map((result) => [`${result.expr} with ${result.parameters}`, result] as const))('%s', (label, result) => {
    // Argo's expr filter passes only when the result is exactly `true`; the engine insists on a boolean.
    const goValue = result.value === undefined ? undefined : JSON.parse(result.value);
    const expected = typeof goValue === 'boolean' ? { value: goValue } : { error: result.error ?? `not a boolean: ${result.value}` };
    expectLikeGo(
      label,
      outcome(() => evaluateExpr(result.expr, parameters[result.parameters])),
      expected,
      documented.get(result.expr),
    );
  });
});

describe('time.ParseDuration against Go', () => {
  const results = golden('duration').results;

  it.each(results.map((result) => [result.text, result] as const))('%j', (text, result) => {
    expect(isGoDuration(text), `Go ${result.error ?? 'accepts it'}`).toBe(result.error === undefined);
    if (result.error === undefined) expect(goDurationNanoseconds(text)).toBe(BigInt(result.nanoseconds));
  });
});

describe('sjson against Go', () => {
  const { documents, values } = vectors('sjson');
  const results = golden('sjson').results;
  const documented = refusals(vectors('sjson').cases, 'path');

  it('covers hundreds of vectors, errors and every kind of value included', () => {
    expect(results.length).toBeGreaterThan(1000);
    expect(results.filter((result) => result.error).length).toBeGreaterThan(100);
    expect(
      new Set(Object.values<any>(values).map((value) => Object.keys(value).find((key) => key !== 'note' && key !== 'refused'))),
    ).toEqual(new Set(['string', 'raw', 'number', 'bool', 'null']));
  });

  /** The call Argo Events makes for this value: `SetBytes` with a Go value, or `SetRawBytes`. */
  function write(document: object, path: string, value: any): object {
    if (value.raw !== undefined) return sjsonSetRaw(document, path, value.raw);
    return sjsonSet(document, path, value.string ?? value.number ?? value.bool ?? null);
  }

  it.each(results.map((result) => [`${result.path} in ${result.document} with ${result.value}`, result] as const))(
    '%s',
    (label, result) => {
      // Argo decodes the written resource with encoding/json: text that is not JSON fails the trigger there.
      const expected =
        result.error !== undefined ? { error: result.error } : result.json ? { value: JSON.parse(result.output) } : { error: 'not JSON' };
      expectLikeGo(
        label,
        outcome(() => write(documents[result.document], result.path, values[result.value])),
        expected,
        documented.get(result.path) ?? values[result.value].refused,
      );
    },
  );
});

describe('every documented refusal still happens', () => {
  it.each(['regexp', 'template', 'gjson', 'govaluate', 'sjson'])('%s', (engine) => {
    const documented: string[] = [...vectors(engine).cases, ...Object.values<any>(vectors(engine).values ?? {})].flatMap((item: any) =>
      typeof item.refused === 'string' ? [item.refused] : [],
    );
    expect(documented.length).toBeGreaterThan(0);
    // Runs after the engine suites (vitest runs describe blocks in order within a file).
    expect(
      documented.filter((reason) => !refusalsSeen.has(reason)),
      'documented refusals the engine no longer makes: drop their "refused"',
    ).toEqual([]);
  });
});
