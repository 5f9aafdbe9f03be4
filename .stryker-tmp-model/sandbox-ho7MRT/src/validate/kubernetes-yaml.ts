/**
 * Reads YAML the way Kubernetes reads it (sigs.k8s.io/yaml on top of Go's yaml.v2), so that what kubectl and
 * argo accept is never a false error here and what they reject is:
 *
 * - YAML 1.1 scalars: `mode: 0755` is the octal 493, `yes`/`on` are booleans; but a plain `.` stays the string
 *   "." (the `yaml` package's 1.1 float pattern takes it for NaN), and dates and `1:20` stay strings (Go only
 *   turns them into times and sexagesimal numbers for typed fields, never for the JSON that Kubernetes reads).
 * - Go's leniency on a multi-line quoted scalar in a flow sequence whose closing `"]` line is indented no
 *   deeper than its key: YAML forbids it, Go accepts it, and upstream Argo examples rely on it. Such lines are
 *   indented two spaces deeper, which does not change the value (line folding drops leading white space).
 * - Duplicate keys: reported with their path and line (the Argo tools decode strictly and reject them), then
 *   read with the last key winning, as non-strict Go decoding does, so the rest of the object is still checked.
 */
// @ts-nocheck

import {
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseAllDocuments,
  type Document,
  type Node,
  type ParsedNode,
  type ScalarTag,
  type Tags,
} from 'yaml';
import { MAX_NESTING_DEPTH, yamlBoundsProblem } from '../io/yaml-bounds';

/** A key that appears twice in one mapping. */
export interface DuplicateKey {
  /** The path of the mapping that holds the key, followed by the key. */
  readonly path: readonly (string | number)[];
  /** The 1-based line of the second (winning) occurrence. */
  readonly line: number;
  /** The 1-based line of the first occurrence. */
  readonly firstLine: number;
}

/** One document of a YAML stream. */
export interface YamlDocument {
  /** The document's value as Kubernetes reads it; `null` for an empty document. */
  readonly value: unknown;
  /** The 0-based position of the document in the stream. */
  readonly index: number;
  /** The 1-based line where the document's content starts. */
  readonly line: number;
  readonly duplicateKeys: readonly DuplicateKey[];
  /**
   * The 1-based line of what `path` names: a mapping entry's key, or a list item.
   * @returns `undefined` when the path does not name a node
   */
  readonly lineOf: (path: readonly (string | number)[]) => number | undefined;
}

/** The text is not YAML, even as leniently as Go reads it. */
export class YamlSyntaxError extends Error {
  public constructor(
    message: string,
    /** The 1-based line of the first problem. */
    public readonly line: number,
  ) {
    super(message);
    this.name = 'YamlSyntaxError';
  }
}

/** Go's float pattern needs a digit; the `yaml` package's 1.1 pattern also matches a lone `.`. */
const GO_FLOAT = /^[-+]?(?:[0-9][0-9_]*\.[0-9_]*|\.[0-9][0-9_]*)$/;
/** Go's exponent form needs a digit before the exponent; the `yaml` package's also matches `e21` (read as NaN). */
const GO_EXPONENT_FLOAT = /^[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)[eE][-+]?[0-9]+$/;

/** Tags that Go only applies to typed fields; for the untyped JSON that Kubernetes decodes, they are strings. */
const STRING_IN_GO = new Set(['tag:yaml.org,2002:timestamp']);
const SEXAGESIMAL = 'TIME';

type Tag = Exclude<Tags[number], string>;

/** The 1.1 tags as Go applies them to untyped values (the schema hands over tag objects, never names). */
function goScalarTags(tags: Tags): Tags {
  return tags
    .filter((tag): tag is Tag => typeof tag !== 'string')
    .filter((tag) => !STRING_IN_GO.has(tag.tag) && tag.format !== SEXAGESIMAL)
    .map((tag): Tag => {
      const isFloat = tag.tag === 'tag:yaml.org,2002:float' && !tag.collection;
      if (isFloat && tag.format === undefined && tag.test?.test('1.5') === true) return { ...tag, test: GO_FLOAT } as ScalarTag;
      if (isFloat && tag.format === 'EXP') return { ...tag, test: GO_EXPONENT_FLOAT } as ScalarTag;
      return tag;
    });
}

const PARSE_OPTIONS = { version: '1.1', uniqueKeys: false, customTags: goScalarTags } as const;

/** The closing line of a quoted scalar in a flow sequence: `"]` or `']` alone on its line. */
const FLOW_END_LINE = /^( *)(["']\])[ \t]*$/gm;

type Parsed = { documents: Document.Parsed[]; lines: LineCounter };

function parseStream(text: string): Parsed {
  const lines = new LineCounter();
  const documents = Array.from(parseAllDocuments(text, { ...PARSE_OPTIONS, lineCounter: lines }));
  return { documents, lines };
}

const firstError = (parsed: Parsed) => parsed.documents.flatMap((document) => document.errors)[0];

/**
 * Every document of a YAML stream, read as Kubernetes reads it.
 * @throws YamlSyntaxError when the text is not YAML even with Go's leniency, or is nested too deeply or holds
 *   too many values to read (measured before it is parsed, src/io/yaml-bounds.ts)
 */
export function readKubernetesYaml(text: string): YamlDocument[] {
  assertYamlBounds(text);
  let parsed = parseStream(text);
  const error = firstError(parsed);
  if (error) {
    const repaired = parseStream(text.replace(FLOW_END_LINE, '$1  $2'));
    if (firstError(repaired)) {
      const line = error.linePos?.[0].line ?? 1;
      throw new YamlSyntaxError(`line ${line}: ${describeYamlFailure(error)}`, line);
    }
    parsed = repaired;
  }
  return parsed.documents.map((document, index) => toYamlDocument(document, index, parsed.lines));
}

/** The parser's message without its own position suffix (the line is given first) and its source excerpt. */
const firstLineOf = (message: string): string =>
  message
    .split('\n')[0]
    .replace(/ at line \d+, column \d+:?$/, '')
    .trim();

/**
 * The deepest nesting read. Kubernetes objects go a few dozen levels deep (CRD schemas the deepest); a
 * document nested thousands of levels is an attack on the reader's stack, refused before it is parsed
 * (yaml-bounds.ts) and, within that bound, before it is walked.
 */
export { MAX_NESTING_DEPTH } from '../io/yaml-bounds';

/**
 * Refuses, before any parser sees it, a text nested or sized past what any manifest needs.
 * @throws YamlSyntaxError naming the line
 */
export function assertYamlBounds(text: string): void {
  const problem = yamlBoundsProblem(text);
  if (problem !== undefined) throw new YamlSyntaxError(`line ${problem.line}: ${problem.message}`, problem.line);
}

/**
 * How many aliases a document may resolve, weighted by what they copy (the `yaml` package's count): enough
 * for anchors in real manifests, far too few for a "billion laughs" document to expand.
 */
export const MAX_ALIAS_COUNT = 1000;

/** The depth of the deepest collection in a document, walked without recursion. */
function nestingDepth(root: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (!isMap(node) && !isSeq(node)) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_NESTING_DEPTH) return deepest;
    for (const item of node.items as unknown[]) {
      if (isMap(node)) {
        const pair = item as { key: unknown; value: unknown };
        stack.push([pair.key, depth + 1], [pair.value, depth + 1]);
      } else stack.push([item, depth + 1]);
    }
  }
  return deepest;
}

/**
 * The value of a parsed document (any YAML version), with the nesting and alias limits of every input.
 * @throws YamlSyntaxError for a document nested too deeply or whose aliases expand too far
 */
export function readYamlValue(document: Document.Parsed, line = 1): unknown {
  return documentValue(document, line);
}

/** The document's value, or a YamlSyntaxError for what would exhaust memory or the stack. */
function documentValue(document: Document.Parsed, line: number): unknown {
  if (nestingDepth(document.contents) > MAX_NESTING_DEPTH) {
    throw new YamlSyntaxError(`line ${line}: nested more than ${MAX_NESTING_DEPTH} levels deep; no Kubernetes object is`, line);
  }
  try {
    return document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? null;
  } catch (error) {
    throw new YamlSyntaxError(`line ${line}: ${describeYamlFailure(error)}`, line);
  }
}

/** A parser or reader failure in words: an alias bomb and a stack overflow are named as what they are. */
export function describeYamlFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/alias count/i.test(message))
    return `its aliases expand to more than ${MAX_ALIAS_COUNT} nodes (an alias bomb?); write the values out`;
  if (error instanceof RangeError || /call stack/i.test(message)) return 'nested too deeply to read';
  return firstLineOf(message);
}

function toYamlDocument(document: Document.Parsed, index: number, lines: LineCounter): YamlDocument {
  const lineAt = (node: Node | null | undefined): number | undefined => (node?.range ? lines.linePos(node.range[0]).line : undefined);
  const contents = document.contents as ParsedNode | null;
  const line = lineAt(contents) ?? lines.linePos(document.range[0]).line;
  return {
    value: documentValue(document, line),
    index,
    line,
    duplicateKeys: duplicateKeysIn(contents, [], lineAt),
    lineOf: (path) => lineAt(nodeAt(contents, path)),
  };
}

const keyText = (key: unknown): string => (isScalar(key) ? String(key.value) : String(key));

function duplicateKeysIn(node: unknown, path: (string | number)[], lineAt: (node: Node) => number | undefined): DuplicateKey[] {
  if (isSeq(node)) return node.items.flatMap((item, index) => duplicateKeysIn(item, [...path, index], lineAt));
  if (!isMap(node)) return [];
  const found: DuplicateKey[] = [];
  const firstLines = new Map<string, number>();
  for (const pair of node.items) {
    const key = keyText(pair.key);
    const line = lineAt(pair.key as Node) ?? 0;
    // `<<` merge keys may repeat; they are not fields.
    if (key !== '<<' && firstLines.has(key)) found.push({ path: [...path, key], line, firstLine: firstLines.get(key) ?? 0 });
    else firstLines.set(key, line);
    found.push(...duplicateKeysIn(pair.value, [...path, key], lineAt));
  }
  return found;
}

/**
 * The node at `path`: for a mapping entry, its key (the line a reader looks for), for a list item, the item.
 * The last of duplicate keys wins, as in the value read.
 */
function nodeAt(node: unknown, path: readonly (string | number)[]): Node | undefined {
  let current: unknown = node;
  let located: unknown = node;
  for (const step of path) {
    if (isSeq(current) && typeof step === 'number') {
      current = current.items[step];
      located = current;
    } else if (isMap(current)) {
      const pair = [...current.items].reverse().find((candidate) => keyText(candidate.key) === String(step));
      current = pair?.value;
      located = pair?.key;
    } else return undefined;
    if (located === undefined || located === null) return undefined;
  }
  return located as Node;
}
