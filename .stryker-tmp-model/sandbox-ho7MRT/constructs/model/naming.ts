/**
 * Kubernetes naming rules, defined once. Every name and label value the platform emits goes through
 * these functions, so that a template, a sensor and a validator can never disagree about a name.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck


/** The longest DNS-1123 label, and the longest name Argo accepts for a Workflow or WorkflowTemplate. */
export const MAX_NAME_LENGTH = 63;

/**
 * How much of a `metadata.generateName` the API server keeps: it cuts the prefix so that the name with its
 * 5 random characters fits MAX_NAME_LENGTH (apiserver `names.SimpleNameGenerator`).
 */
export const GENERATE_NAME_PREFIX_LIMIT = MAX_NAME_LENGTH - 5;

/** `base-` as a `metadata.generateName`, cut as the API server would cut it. */
export function generateNamePrefix(base: string): string {
  return `${base}-`.slice(0, GENERATE_NAME_PREFIX_LIMIT);
}

/** The longest label value Kubernetes accepts. */
export const MAX_LABEL_VALUE_LENGTH = 63;

const HASH_LENGTH = 6;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const LABEL_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/**
 * FNV-1a, 32 bit, of the input's UTF-8 bytes: the same on every machine, in every run, in the constructs, the
 * runtime program and the command line. It places names (`shortHash`) and records (the progress and
 * registry shards).
 */
export function fnv1a(input: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(input)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * A short, stable hash (FNV-1a, base 36) of the original input. It keeps two long names that share a
 * prefix apart after truncation.
 */
export function shortHash(input: string, length: number = HASH_LENGTH): string {
  return fnv1a(input).toString(36).padStart(length, '0').slice(-length);
}

/** True when `name` is a DNS-1123 label of at most `maxLength` characters. */
export function isDnsLabel(name: string, maxLength: number = MAX_NAME_LENGTH): boolean {
  return name.length <= maxLength && DNS_LABEL.test(name);
}

/** True when `name` is a DNS-1123 subdomain (ConfigMap, Secret, custom resource names). */
export function isDnsSubdomain(name: string): boolean {
  return name.length <= 253 && DNS_SUBDOMAIN.test(name);
}

/** Why `name` is not a DNS-1123 label of at most `maxLength` characters, or `undefined` when it is one. */
export function dnsLabelProblem(name: string, maxLength: number = MAX_NAME_LENGTH): string | undefined {
  if (isDnsLabel(name, maxLength)) return undefined;
  return `is not a DNS-1123 label of at most ${maxLength} characters: use lower-case letters, digits and "-", starting and ending with a letter or digit`;
}

/**
 * Why `name` cannot name a ServiceAccount, or `undefined` when it can: the API server takes a DNS-1123
 * subdomain (kubernetes `pkg/apis/core/validation`, `ValidateServiceAccountName`).
 */
export function serviceAccountNameProblem(name: string): string | undefined {
  if (isDnsSubdomain(name)) return undefined;
  return 'is not a legal service account name: use lower-case letters, digits, "-" and ".", at most 253 characters';
}

/** True when `value` is a legal Kubernetes label value (it may be empty). */
export function isLabelValue(value: string): boolean {
  return value.length <= MAX_LABEL_VALUE_LENGTH && LABEL_VALUE.test(value);
}

/** True when `key` is a legal label or annotation key: an optional DNS subdomain prefix, then a name. */
export function isLabelKey(key: string): boolean {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined && !isDnsSubdomain(prefix)) return false;
  return name.length <= 63 && LABEL_NAME.test(name);
}

/** Lower case, accents stripped, every run of characters outside [a-z0-9] turned into one `-`. */
function slug(raw: string): string {
  return raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

function trimDashes(value: string): string {
  return value.replace(/^-+|-+$/g, '');
}

/**
 * A DNS-1123 label built from free text: `dnsName('Play', 'octo_org/Payments')` is
 * `play-octo-org-payments`. When the result is longer than `maxLength`, it is cut and a hash of the
 * whole input is appended, so distinct inputs stay distinct.
 *
 * @throws when nothing usable is left (the input has no letter or digit at all).
 */
export function dnsName(parts: string | readonly string[], maxLength: number = MAX_NAME_LENGTH): string {
  const list = typeof parts === 'string' ? [parts] : parts;
  const joined = list
    .map(slug)
    .filter((part) => part.length > 0)
    .join('-');
  if (joined.length === 0) {
    throw new Error(`cannot build a Kubernetes name from ${JSON.stringify(list.join(' '))}: it has no letter or digit`);
  }
  if (joined.length <= maxLength) return joined;
  const hash = shortHash(list.join('\u0000'));
  return `${trimDashes(joined.slice(0, maxLength - hash.length - 1))}-${hash}`;
}

/**
 * A DNS-1123 label `{base}-{suffix}` in which the suffix always survives: when too long, the base is
 * cut (and hashed) instead. Used where the suffix carries meaning, like the agent of a workspace.
 *
 * @throws when the suffix alone leaves no room for a base.
 */
export function dnsNameWithSuffix(base: string, suffix: string, maxLength: number = MAX_NAME_LENGTH): string {
  const tail = dnsName(suffix);
  const room = maxLength - tail.length - 1;
  if (room < HASH_LENGTH + 2) {
    throw new Error(`the name suffix "${tail}" is too long: it leaves no room for "${base}" within ${maxLength} characters`);
  }
  return `${dnsName(base, room)}-${tail}`;
}

/**
 * A legal label value made from free text: characters outside [A-Za-z0-9-_.] become `-`, the ends are
 * alphanumeric, and a value over 63 characters is cut with a hash of the whole input appended.
 */
export function labelValue(raw: string): string {
  const cleaned = raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
  if (cleaned.length <= MAX_LABEL_VALUE_LENGTH) return cleaned;
  const hash = shortHash(raw);
  const head = cleaned.slice(0, MAX_LABEL_VALUE_LENGTH - hash.length - 1).replace(/[^A-Za-z0-9]+$/, '');
  return `${head}-${hash}`;
}

/** A GitHub repository, split into its owner and its name. */
export interface RepositoryName {
  readonly owner: string;
  readonly name: string;
}

const GITHUB_OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const GITHUB_REPO = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * Parses `owner/name` as GitHub spells it.
 *
 * @throws with a message that says what a repository name looks like.
 */
export function parseRepository(fullName: string): RepositoryName {
  const parts = fullName.split('/');
  if (parts.length !== 2 || !GITHUB_OWNER.test(parts[0]) || !GITHUB_REPO.test(parts[1]) || /^\.+$/.test(parts[1])) {
    throw new Error(`"${fullName}" is not a GitHub repository: expected owner/name, e.g. octo-org/payments`);
  }
  return { owner: parts[0], name: parts[1] };
}

/**
 * The label value of a repository: `Octo-Org/Payments.API` is `octo-org.payments.api`. GitHub owners
 * have no dots, so the first dot separates owner from name and the encoding is one-to-one; GitHub names
 * are case-insensitive, so the value is lower case. Long names are cut with a hash.
 *
 * @throws when `fullName` is not `owner/name`
 */
export function repositoryLabelValue(fullName: string): string {
  const { owner, name } = parseRepository(fullName);
  return labelValue(`${owner}.${name}`.toLowerCase());
}

/** The largest task id: the CodeRun's `taskId` is a 32-bit integer. */
export const MAX_TASK_ID = 2147483647;

/**
 * The workspace PVC of an agent: implementation agents share `workspace-{service}`, every other agent
 * gets `workspace-{service}-{agent}`. The agent suffix survives truncation.
 *
 * @throws when the service or the agent has no letter or digit, or the agent leaves no room for the service
 */
export function workspacePvcName(service: string, agent: string, shared: boolean): string {
  const base = ['workspace', service];
  return shared ? dnsName(base) : dnsNameWithSuffix(base.join('-'), agent);
}

/** The role whose agents share the repository's workspace; every other role works in its own. */
export const SHARED_WORKSPACE_ROLE = 'implementation';

/** The workspace claim an agent of `role` works in, for a service. */
export function workspaceOfAgent(service: string, agent: string, role: string): string {
  return workspacePvcName(service, agent, role === SHARED_WORKSPACE_ROLE);
}

/**
 * The Secret that holds a GitHub App's credentials: `5DLabs-Rex` uses `github-app-5dlabs-rex`.
 *
 * @throws when the App's name has no letter or digit
 */
export function githubAppSecretName(githubApp: string): string {
  return dnsName(['github-app', githubApp]);
}

/** The key of an agent's system prompt in the agents ConfigMap: `5DLabs-Rex_system-prompt.md`. */
export function systemPromptKey(githubApp: string): string {
  return `${githubApp}_system-prompt.md`;
}

/** The login of a GitHub App's bot user, lower case: `5DLabs-Cleo` acts as `5dlabs-cleo[bot]`. */
export function githubAppBotLogin(githubApp: string): string {
  return `${githubApp.toLowerCase()}[bot]`;
}
