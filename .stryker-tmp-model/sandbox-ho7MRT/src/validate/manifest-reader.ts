/**
 * Turns the text of one manifest file into the objects `agent-play validate` checks: every document of a
 * multi-document YAML (or JSON) file, with `kind: List` unpacked into its items as `kubectl apply` does, plus
 * the findings that belong to reading itself (duplicate keys, documents that are not objects).
 */
// @ts-nocheck

import { fieldPath, type Finding, type ManifestObject } from './finding';
import { readKubernetesYamlCached } from './cached-kubernetes-yaml';
import type { YamlDocument } from './kubernetes-yaml';
import { isRecord } from '../is-record';
import { describeCharacter, NOT_YAML_PRINTABLE, YAML_1_1_LINE_BREAK } from '../../constructs/model/text-characters';

export const READER_RULES = {
  duplicateKey: 'yaml-duplicate-key',
  shape: 'manifest-shape',
  characters: 'yaml-characters',
} as const;

/** What reading one file gives. */
export interface ManifestReading {
  readonly objects: ManifestObject[];
  readonly findings: Finding[];
}

/** A `kind: List` (what `kubectl get -o yaml` prints for several objects), or any `*List` with items. */
const isList = (value: Record<string, any>): boolean =>
  typeof value.kind === 'string' && value.kind.endsWith('List') && Array.isArray(value.items);

/**
 * The objects and reading findings of one file's text.
 * @param file the file as the user named it, used in findings
 * @throws YamlSyntaxError when the text is not YAML
 */
export function readManifestText(text: string, file: string): ManifestReading {
  const objects: ManifestObject[] = [];
  const findings: Finding[] = [];
  for (const document of readKubernetesYamlCached(text)) {
    if (document.value === null) continue;
    const entries = entriesOf(document);
    for (const entry of entries) {
      const object = manifestObject(file, document.index, entry.line, entry.value);
      if (object) objects.push({ ...object, lineOf: (path) => document.lineOf([...entry.at, ...path]) });
      else findings.push(shapeFinding(file, entry.line, entry.value));
    }
    findings.push(...duplicateFindings(file, document, entries));
  }
  findings.push(...characterFindings(file, text, objects));
  return { objects, findings };
}

/** What YAML 1.1 and 1.2 readers read differently, or a reader refuses, written raw: one expression finds either. */
const MISREAD = new RegExp(`${YAML_1_1_LINE_BREAK.source}|${NOT_YAML_PRINTABLE.source}`, 'g');

/**
 * Each character written raw that YAML 1.1 readers (Go's yaml.v2: kubectl, client-go, ArgoCD) read otherwise
 * than the YAML 1.2 reader this file was checked with (NEL, U+2028, U+2029: line breaks to them, so a block
 * scalar ends there and the rest of its line is read as YAML), or refuse (controls, DEL, C1 controls, U+FFFE,
 * U+FFFF): the first place of each, blamed on the object whose document holds it.
 */
function characterFindings(file: string, text: string, objects: readonly ManifestObject[]): Finding[] {
  const first = new Map<string, { index: number; count: number }>();
  for (const match of text.matchAll(MISREAD)) {
    const seen = first.get(match[0]);
    if (seen) seen.count += 1;
    else first.set(match[0], { index: match.index, count: 1 });
  }
  return [...first].map(([character, { index, count }]) => {
    const line = lineAt(text, index);
    const object = [...objects].reverse().find((candidate) => (candidate.line ?? 1) <= line);
    const times = count > 1 ? ` (${count} times in the file)` : '';
    const what = YAML_1_1_LINE_BREAK.test(character)
      ? 'YAML 1.1 readers (kubectl, client-go, ArgoCD) take it for a line break, YAML 1.2 readers for text, so they read different values'
      : 'YAML readers (kubectl among them) refuse a file holding it';
    const written = `\\u${(character.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;
    return {
      file,
      kind: object?.kind ?? '',
      name: object?.name ?? '',
      path: '',
      message: `line ${line}: ${describeCharacter(character)} written raw${times}: ${what}; write it as the escape ${written} in a double-quoted string`,
      rule: READER_RULES.characters,
      severity: 'error' as const,
      line,
    };
  });
}

/** The 1-based line of a position in the text. */
function lineAt(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) line += 1;
  return line;
}

interface Entry {
  /** Where the object sits in its document: `[]` for the document itself, `['items', i]` in a List. */
  readonly at: readonly (string | number)[];
  readonly value: unknown;
  readonly line: number;
}

function entriesOf(document: YamlDocument): Entry[] {
  const value = document.value;
  if (!isRecord(value) || !isList(value)) return [{ at: [], value, line: document.line }];
  return (value.items as unknown[]).map((item, index) => ({
    at: ['items', index],
    value: item,
    line: document.lineOf(['items', index]) ?? document.line,
  }));
}

/** The object, or `undefined` when the document cannot be a Kubernetes object. */
export function manifestObject(file: string, index: number, line: number | undefined, value: unknown): ManifestObject | undefined {
  if (!isRecord(value) || typeof value.kind !== 'string' || typeof value.apiVersion !== 'string') return undefined;
  const metadata = isRecord(value.metadata) ? value.metadata : {};
  const name = nameOf(value);
  const namespace = typeof metadata.namespace === 'string' ? metadata.namespace : undefined;
  return { file, index, line, object: value, kind: value.kind, name, namespace };
}

/** `metadata.name`, else `metadata.generateName` (what `kubectl create` completes), else `''`. */
function nameOf(value: unknown): string {
  const metadata = isRecord(value) && isRecord(value.metadata) ? value.metadata : {};
  if (typeof metadata.name === 'string') return metadata.name;
  return typeof metadata.generateName === 'string' ? metadata.generateName : '';
}

function shapeFinding(file: string, line: number, value: unknown): Finding {
  const record = isRecord(value) ? value : undefined;
  const missing = ['apiVersion', 'kind'].filter((field) => typeof record?.[field] !== 'string');
  const message = record
    ? `not a Kubernetes object: ${missing.map((field) => `\`${field}\``).join(' and ')} must be set (a string)`
    : `not a Kubernetes object: the document is ${Array.isArray(value) ? 'a list' : `the scalar ${JSON.stringify(value)}`}, not a mapping`;
  return {
    file,
    kind: typeof record?.kind === 'string' ? record.kind : '',
    name: nameOf(record),
    path: '',
    message,
    rule: READER_RULES.shape,
    severity: 'error',
    line,
  };
}

/** Each duplicate key, blamed on the object (or List item) that holds it, at its path inside that object. */
function duplicateFindings(file: string, document: YamlDocument, entries: readonly Entry[]): Finding[] {
  return document.duplicateKeys.map((duplicate) => {
    const entry = entries.find((candidate) => candidate.at.every((step, position) => duplicate.path[position] === step)) ?? entries[0];
    const inside = duplicate.path.slice(entry.at.length);
    const record = isRecord(entry.value) ? entry.value : {};
    const key = String(inside[inside.length - 1]);
    return {
      file,
      kind: typeof record.kind === 'string' ? record.kind : '',
      name: nameOf(record),
      path: fieldPath(...inside),
      message: `duplicate key "${key}" (line ${duplicate.line}; first at line ${duplicate.firstLine}): the Argo tools and strict decoding reject the file, lenient readers keep only the last one`,
      rule: READER_RULES.duplicateKey,
      severity: 'error',
      line: duplicate.line,
    };
  });
}
