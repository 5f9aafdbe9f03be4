/**
 * What Argo's own code is asked (`npm run oracle`, scripts/oracle.ts) and what the tests compare with its
 * committed answers (test/golden/oracle/): the same inputs, built the same way on both sides, each hashed so
 * that a changed input shows as a stale answer.
 *
 * - groups of manifest files, each validated together (a WorkflowTemplate or EventBus is found among the
 *   objects of its group, as `argo lint` finds the templates of the files it is given): every file of the
 *   upstream corpus on its own, every synthesized platform, every lint fixture, every CRD case;
 * - Sensor runs: a Sensor of a platform and GitHub deliveries, one after the other: every scenario of
 *   examples/scenarios, every @octokit/webhooks-examples payload, and variations fast-check generates
 *   (repository case, missing fields, numbers as strings, labels, timestamps).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { App } from 'cdk8s';
import * as defaultPlatformExample from '../examples/default-platform';
import * as directExecutionExample from '../examples/direct-execution';
import * as parallelTestersExample from '../examples/parallel-testers';
import * as projectExample from '../examples/project';
import * as securityStageExample from '../examples/security-stage';
import * as twoRepositoriesExample from '../examples/two-repositories';
import fc from 'fast-check';
import { parse } from 'yaml';
import { resolveConfig } from '../constructs/model/resolve-config';
import { loadScenario } from '../src/simulate/scenario';
import { synthesizeApp } from '../src/synth/synthesize-app';
import { synthesizePlatform, type ManifestFiles } from '../src/synth/synthesize';
import { corpusGroupId } from './oracle-golden-files';
import { parseManifests } from './support/synth';
import { ARGO_SCHEMAS_DIR, HAS_UPSTREAM_ARGO, yamlFilesUnder } from './support/upstream-argo';

const ROOT = path.resolve(__dirname, '..');

export { ARGO_SCHEMAS_DIR, HAS_UPSTREAM_ARGO } from './support/upstream-argo';

/** A manifest file as the oracle reads it. */
export interface InputFile {
  readonly name: string;
  readonly text: string;
}

/** Files validated together. */
export interface InputGroup {
  readonly id: string;
  readonly files: readonly InputFile[];
  /** A folder of CRDs the group's objects are checked against (`agent-play validate --crds`). */
  readonly crdsDir?: string;
}

/** One GitHub delivery as the GitHub EventSource receives it. */
export interface Delivery {
  readonly eventSourceName: string;
  readonly eventName: string;
  readonly headers: Readonly<Record<string, readonly string[]>>;
  /** The request body (JSON text). */
  readonly body: string;
  /** The CloudEvent time (RFC 3339). */
  readonly time: string;
  readonly id: string;
}

/** A Sensor and the deliveries that reach it, in order. */
export interface SensorRunInput {
  readonly id: string;
  readonly sensor: Record<string, any>;
  readonly events: readonly Delivery[];
}

export const sha256 = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex');

/** The hash that ties a group's answer to its input. */
export const groupHash = (group: InputGroup): string => sha256(group.files);

/** The hash that ties a Sensor run's answer to its input. */
export const runHash = (run: SensorRunInput): string => sha256({ sensor: run.sensor, events: run.events });

// ---- groups ----

/** Every file of the upstream example corpus, each its own group (as `agent-play validate FILE`); none without `../shared/argo`. */
export function corpusGroups(): InputGroup[] {
  if (!HAS_UPSTREAM_ARGO) return [];
  return ['examples-workflows', 'examples-events'].flatMap((folder) =>
    yamlFilesUnder(path.join(ARGO_SCHEMAS_DIR, folder)).map((file) => {
      const name = `${folder}/${file}`;
      return { id: corpusGroupId(name), files: [{ name, text: readFileSync(path.join(ARGO_SCHEMAS_DIR, name), 'utf8') }] };
    }),
  );
}

/** The upstream Argo Workflows CRDs, which the API server checks Workflows objects against; none without `../shared/argo`. */
export function upstreamCrds(): InputFile[] {
  if (!HAS_UPSTREAM_ARGO) return [];
  return readdirSync(ARGO_SCHEMAS_DIR)
    .filter((file) => /^argoproj\.io_.*workflow.*\.yaml$/.test(file))
    .sort()
    .map((name) => ({ name, text: readFileSync(path.join(ARGO_SCHEMAS_DIR, name), 'utf8') }));
}

/** A platform: its name and its synthesized files. */
export interface Platform {
  readonly name: string;
  readonly files: ManifestFiles;
}

const SCENARIOS = path.join(ROOT, 'examples', 'scenarios');

/** The example apps of examples/, by file (a test checks that none is missing). */
export const EXAMPLE_APPS: Readonly<Record<string, { readonly buildApp: () => App }>> = {
  'default-platform.ts': defaultPlatformExample,
  'direct-execution.ts': directExecutionExample,
  'parallel-testers.ts': parallelTestersExample,
  'project.ts': projectExample,
  'security-stage.ts': securityStageExample,
  'two-repositories.ts': twoRepositoriesExample,
};

/** The example apps' files in examples/. */
export const exampleFiles = (): string[] =>
  readdirSync(path.join(ROOT, 'examples'))
    .filter((name) => name.endsWith('.ts'))
    .sort();

/**
 * The platforms: the default one (`npm run synth`), each example app of examples/, and each scenario's
 * own config (`examples/scenarios/NAME/*.agent-play.yaml`).
 */
export function platforms(): Platform[] {
  const found: Platform[] = [{ name: 'default', files: synthesizePlatform(resolveConfig({ env: {} })) }];
  for (const [file, example] of Object.entries(EXAMPLE_APPS))
    found.push({ name: `examples/${file}`, files: synthesizeApp(example.buildApp()) });
  for (const scenario of readdirSync(SCENARIOS).sort()) {
    for (const config of readdirSync(path.join(SCENARIOS, scenario)).filter((name) => name.endsWith('.agent-play.yaml'))) {
      const fileName = path.join(SCENARIOS, scenario, config);
      const file = parse(readFileSync(fileName, 'utf8'));
      found.push({ name: `scenarios/${scenario}/${config}`, files: synthesizePlatform(resolveConfig({ file, fileName, env: {} })) });
    }
  }
  return found;
}

/** A platform's files as one group. */
export const platformGroup = (platform: Platform): InputGroup => ({
  id: `platform/${platform.name}`,
  files: [...platform.files.entries()].map(([name, text]) => ({ name, text })),
});

const FIXTURES = path.join(ROOT, 'test', 'fixtures');

/** Every lint fixture, each its own group. */
export function lintFixtureGroups(): InputGroup[] {
  const folder = path.join(FIXTURES, 'lint');
  return yamlFilesUnder(folder).map((file) => ({
    id: `fixture/lint/${file}`,
    files: [{ name: `lint/${file}`, text: readFileSync(path.join(folder, file), 'utf8') }],
  }));
}

/**
 * Every CRD case of test/fixtures/oracle-crds/: `CASE/crds/*.yaml` (given to `--crds`) and `CASE/*.yaml`
 * (the objects). The oracle reads them as one group: the API server knows the CRDs when the objects come.
 */
export function crdCaseGroups(): InputGroup[] {
  const folder = path.join(FIXTURES, 'oracle-crds');
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .sort()
    .map((name) => {
      const crdsDir = path.join(folder, name, 'crds');
      const read = (relative: string): InputFile => ({
        name: `${name}/${relative}`,
        text: readFileSync(path.join(folder, name, relative), 'utf8'),
      });
      const crds = readdirSync(crdsDir)
        .filter((file) => file.endsWith('.yaml'))
        .sort()
        .map((file) => read(`crds/${file}`));
      const objects = readdirSync(path.join(folder, name))
        .filter((file) => file.endsWith('.yaml'))
        .sort()
        .map(read);
      return { id: `crd-case/${name}`, files: [...crds, ...objects], crdsDir };
    });
}

// ---- Sensor runs ----

/** The time every delivery carries unless a variation changes it. */
export const EVENT_TIME = '2026-01-01T00:00:00Z';

/** The GitHub EventSource's name and event name of a platform (the one the simulator delivers through). */
export function githubSource(objects: readonly Record<string, any>[]): { name: string; eventName: string } {
  const eventSource = objects.find((object) => object.kind === 'EventSource');
  if (!eventSource) throw new Error('the platform has no EventSource');
  return { name: eventSource.metadata.name, eventName: Object.keys(eventSource.spec.github)[0] };
}

/** A delivery of `payload` as GitHub sends it, through `source`. */
export function delivery(
  source: { name: string; eventName: string },
  event: string,
  payload: unknown,
  id: string,
  time: string = EVENT_TIME,
): Delivery {
  return {
    eventSourceName: source.name,
    eventName: source.eventName,
    headers: { 'X-Github-Event': [event], 'X-Github-Delivery': [id], 'Content-Type': ['application/json'] },
    body: JSON.stringify(payload),
    time,
    id,
  };
}

/** A named list of GitHub deliveries (event and payload), before a platform gives them a source. */
interface DeliveryList {
  readonly name: string;
  readonly deliveries: readonly { readonly event: string; readonly payload: unknown; readonly id: string; readonly time?: string }[];
}

/** The GitHub steps of every scenario, in order. */
export function scenarioDeliveries(): DeliveryList[] {
  return readdirSync(SCENARIOS)
    .sort()
    .map((name) => {
      const scenario = loadScenario(path.join(SCENARIOS, name, 'scenario.yaml'));
      const deliveries = scenario.steps.flatMap((step) =>
        'github' in step ? [{ event: step.github, payload: step.payload, id: step.delivery }] : [],
      );
      return { name: `scenario/${name}`, deliveries };
    });
}

/** Every payload of @octokit/webhooks-examples, under its event name. */
export function octokitDeliveries(): DeliveryList {
  const examples = createRequire(__filename)('@octokit/webhooks-examples') as { name: string; examples: unknown[] }[];
  const deliveries = examples.flatMap((entry) =>
    entry.examples.map((payload, index) => ({ event: entry.name, payload, id: `${entry.name}-${index}` })),
  );
  return { name: 'octokit', deliveries };
}

type Json = Record<string, any>;

/** Fields a variation may remove: those the platform's filters and parameters read. */
const REMOVABLE = [
  ['repository', 'full_name'],
  ['pull_request', 'labels'],
  ['pull_request', 'head', 'ref'],
  ['pull_request', 'number'],
  ['pull_request', 'merged'],
  ['pull_request', 'html_url'],
  ['review', 'state'],
  ['review', 'user', 'login'],
  ['review', 'submitted_at'],
  ['sender', 'login'],
  ['label', 'name'],
  ['action'],
] as const;

const LABELS = [
  'task-5',
  'task-05',
  'task-0005',
  'TASK-5',
  'task-5 ',
  'task-',
  'task-x',
  'task-99999999999',
  'task-1e3',
  'task-2147483648',
  'ready-for-qa',
  'needs-fixes',
];
const TIMESTAMPS = ['2026-01-01T00:00:00Z', '2026-01-01T00:05:00+02:00', '2025-12-31T23:59:59.999Z', '', 'yesterday', null];

/** One variation of a base payload, as fast-check draws it. */
interface Variation {
  readonly base: number;
  readonly repositoryCase: readonly boolean[] | undefined;
  readonly remove: readonly number[];
  readonly numberAsString: boolean;
  readonly labels: readonly string[] | undefined;
  readonly submittedAt: string | null | undefined;
  readonly eventTime: string;
}

const variationArbitrary = (bases: number): fc.Arbitrary<Variation> =>
  fc.record({
    base: fc.nat({ max: bases - 1 }),
    // Each change is drawn rarely enough that many variations still pass the Sensors' filters.
    repositoryCase: fc.option(fc.array(fc.boolean(), { minLength: 24, maxLength: 24 }), { nil: undefined, freq: 2 }),
    remove: fc.oneof(
      { weight: 3, arbitrary: fc.constant([]) },
      { weight: 1, arbitrary: fc.uniqueArray(fc.nat({ max: REMOVABLE.length - 1 }), { minLength: 1, maxLength: 2 }) },
    ),
    numberAsString: fc.boolean(),
    labels: fc.option(fc.uniqueArray(fc.constantFrom(...LABELS), { maxLength: 3 }), { nil: undefined, freq: 2 }),
    submittedAt: fc.option(fc.constantFrom(...TIMESTAMPS), { nil: undefined, freq: 2 }),
    eventTime: fc.constantFrom(EVENT_TIME, '2026-01-01T00:03:00Z', '2025-06-01T12:00:00+02:00'),
  });

function without(payload: Json, steps: readonly string[]): void {
  let parent: any = payload;
  for (const step of steps.slice(0, -1)) {
    if (typeof parent !== 'object' || parent === null) return;
    parent = parent[step];
  }
  if (typeof parent === 'object' && parent !== null) delete parent[steps[steps.length - 1]];
}

function varied(base: Json, variation: Variation): Json {
  const payload = structuredClone(base);
  const name: unknown = payload.repository?.full_name;
  const flips = variation.repositoryCase;
  if (typeof name === 'string' && flips)
    payload.repository.full_name = [...name].map((char, index) => (flips[index % 24] ? char.toUpperCase() : char)).join('');
  if (payload.pull_request && variation.labels)
    payload.pull_request.labels = variation.labels.map((label, index) => ({ id: 2000 + index, name: label }));
  if (payload.pull_request && variation.numberAsString && typeof payload.pull_request.number === 'number')
    payload.pull_request.number = String(payload.pull_request.number);
  if (payload.review && variation.submittedAt !== undefined) payload.review.submitted_at = variation.submittedAt;
  for (const index of variation.remove) without(payload, REMOVABLE[index]);
  return payload;
}

/** How many variations fast-check draws, and from which seed (fixed: the answers are committed). */
export const VARIATIONS = { seed: 26, numRuns: 160 } as const;

/** Variations of the scenarios' payloads (which the default platform's Sensors accept as they are). */
export function variedDeliveries(): DeliveryList {
  const bases = scenarioDeliveries().flatMap((list) => list.deliveries);
  const unique = [...new Map(bases.map((base) => [JSON.stringify(base.payload), base])).values()];
  const drawn = fc.sample(variationArbitrary(unique.length), { seed: VARIATIONS.seed, numRuns: VARIATIONS.numRuns });
  const deliveries = drawn.map((variation, index) => {
    const base = unique[variation.base];
    return { event: base.event, payload: varied(base.payload as Json, variation), id: `variation-${index}`, time: variation.eventTime };
  });
  return { name: 'variations', deliveries };
}

/**
 * The Sensor runs: every scenario on the default platform and on its own config, every octokit payload on
 * the default platform, the variations on it and on the two-repository example (the repository lookups).
 */
export function sensorRuns(allPlatforms: readonly Platform[]): SensorRunInput[] {
  const byName = new Map(allPlatforms.map((platform) => [platform.name, platform]));
  const twoRepositories = byName.get('examples/two-repositories.ts');
  const lists: { platform: Platform; list: DeliveryList }[] = [];
  const defaultPlatform = byName.get('default') as Platform;
  for (const list of scenarioDeliveries()) {
    lists.push({ platform: defaultPlatform, list });
    const scenario = list.name.slice('scenario/'.length);
    for (const platform of allPlatforms.filter((candidate) => candidate.name.startsWith(`scenarios/${scenario}/`)))
      lists.push({ platform, list });
  }
  lists.push({ platform: defaultPlatform, list: octokitDeliveries() });
  const variations = variedDeliveries();
  lists.push({ platform: defaultPlatform, list: variations });
  if (twoRepositories) lists.push({ platform: twoRepositories, list: variations });
  return lists.flatMap(({ platform, list }) => {
    const objects = parseManifests(platform.files) as Record<string, any>[];
    // A platform without gates (a project's plays of agent stages only) has no Sensor for a delivery to reach.
    if (!objects.some((object) => object.kind === 'Sensor')) return [];
    const source = githubSource(objects);
    const events = list.deliveries.map((item) => delivery(source, item.event, item.payload, item.id, item.time));
    return objects
      .filter((object) => object.kind === 'Sensor')
      .map((sensor) => ({ id: `${platform.name}/${sensor.metadata.name}/${list.name}`, sensor, events }));
  });
}
