/**
 * Compiled schema validators, kept as ajv standalone code so that a process does not compile the same schema
 * again: compiling the Argo Workflows CRDs takes ajv about half a second, loading the compiled code a few
 * milliseconds. Looked up in the package's own `build/validators/` (compiled by `npm run build`), then in
 * the user's cache folder (`$AGENT_PLAY_CACHE_DIR`, else `$XDG_CACHE_HOME/agent-play`, else
 * `~/.cache/agent-play`), never in the working folder. Any failure to read or write the cache costs time,
 * never an error.
 */
import type { default as AjvClass, ValidateFunction } from 'ajv';
import type { default as standaloneCodeFunction } from 'ajv/dist/standalone';
import equal from 'ajv/dist/runtime/equal';
import ucs2length from 'ajv/dist/runtime/ucs2length';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { makeFolder } from '../../io/make-folder';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { version as AJV_VERSION } from 'ajv/package.json';
import { CompileCache, markOneOffWork, scriptSource } from '../../compile-cache';
import { readCacheFile, userCacheDir, writeCacheFile } from '../../user-cache-dir';
import { goPatternEngine } from './go-pattern';
import { AJV_OPTIONS, type JsonSchema } from './json-schema-passes';

/** Bump when what is compiled changes in a way the key does not capture (v2: `pattern` through go-pattern.ts). */
const FORMAT = 'validators-v2';

/** The modules ajv's standalone code requires, handed to it directly: the cache folder has no node_modules. */
const RUNTIME: Readonly<Record<string, unknown>> = {
  'ajv/dist/runtime/equal': { default: equal },
  'ajv/dist/runtime/ucs2length': { default: ucs2length },
  'agent-play/go-pattern': { goPatternEngine },
};

export { userCacheDir };

/** The package's own folder of validators compiled at build time, beside the compiled code. */
const packagedDir = (): string => path.join(__dirname, 'validators');

/** One schema document and the validators wanted from it, by name. */
export interface ValidatorRequest {
  /**
   * The document, with an `$id`; every wanted schema is a `$ref` into it. A function when making the
   * document costs time: it is called only when the validators must be compiled, and `madeFrom` keys them.
   */
  readonly document: JsonSchema | (() => JsonSchema);
  /**
   * Everything a `document` function makes the document from (its inputs, the version of the code that makes
   * it), in the cache key instead of the document itself. @default the document
   */
  readonly madeFrom?: unknown;
  /** Validator name to `$ref`, e.g. `{ Workflow: 'argo-workflows#/definitions/...' }`. */
  readonly refs: Readonly<Record<string, string>>;
}

const keys = new WeakMap<ValidatorRequest, string>();

/** The cache key of a request: what it compiles and with which ajv. */
export function validatorKey(request: ValidatorRequest): string {
  let key = keys.get(request);
  if (key === undefined) {
    const madeFrom = request.madeFrom !== undefined ? { madeFrom: request.madeFrom } : documentOf(request);
    key = createHash('sha256')
      .update(FORMAT)
      .update(AJV_VERSION)
      .update(JSON.stringify(AJV_OPTIONS))
      .update(JSON.stringify(request.refs))
      .update(JSON.stringify(madeFrom))
      .digest('hex')
      .slice(0, 32);
    keys.set(request, key);
  }
  return key;
}

const documentOf = (request: ValidatorRequest): JsonSchema =>
  typeof request.document === 'function' ? request.document() : request.document;

const loaded = new Map<string, Record<string, ValidateFunction>>();

/**
 * The validators of `request`: from memory, the packaged folder, the user cache, or compiled (and then
 * stored in the user cache).
 */
export function cachedValidators(request: ValidatorRequest): Record<string, ValidateFunction> {
  const key = validatorKey(request);
  let validators = loaded.get(key);
  if (!validators) {
    validators =
      readCompiled(path.join(packagedDir(), `${key}.cjs`), key, Object.keys(request.refs)) ??
      readCompiled(path.join(userCacheDir(), 'validators', `${key}.cjs`), key, Object.keys(request.refs)) ??
      compileAndStore(request, key);
    loaded.set(key, validators);
  }
  return validators;
}

/** Compiles `request` into `directory` (the build does this for the built-in schemas). */
export function writeCompiledValidators(request: ValidatorRequest, directory: string): string {
  const file = path.join(directory, `${validatorKey(request)}.cjs`);
  makeFolder(directory);
  writeFileSync(file, compiledCode(request));
  return file;
}

/**
 * One ajv per schema document, holding it: the requests of the Kubernetes kinds share one document (every
 * definition), which an ajv of its own per kind read, checked against the meta-schema and compiled the shared
 * definitions of again, four seconds of the release build's CPU.
 */
const ajvOfDocument = new WeakMap<JsonSchema, AjvClass>();

function compiledCode(request: ValidatorRequest): string {
  // ajv itself is loaded only here: a process that finds its validators compiled never loads it. The command
  // line's compiled-code cache is not made from such a run (compile-cache.ts).
  markOneOffWork();
  const load = createRequire(__filename);
  const standaloneCode = (load('ajv/dist/standalone') as { default: typeof standaloneCodeFunction }).default;
  const document = documentOf(request);
  let ajv = ajvOfDocument.get(document);
  if (!ajv) {
    const Ajv = (load('ajv') as { default: typeof AjvClass }).default;
    ajv = new Ajv({ ...AJV_OPTIONS, code: { ...AJV_OPTIONS.code, source: true } });
    ajv.addSchema(document);
    ajvOfDocument.set(document, ajv);
  }
  return standaloneCode(ajv, { ...request.refs });
}

/** The V8 caches of the validators this process ran, by key. */
const codeCaches = new Map<string, CompileCache>();

/**
 * Runs compiled validator code. V8's compiled form of it is kept beside it in the user cache (`<key>.v8`),
 * written at exit so that it holds the validator functions the process ran, not only the module's top: parsing
 * a megabyte of generated code, and compiling the validator of a WorkflowTemplate on its first call, cost more
 * than validating.
 */
function evaluate(code: string, key: string): Record<string, ValidateFunction> {
  const module = { exports: {} as Record<string, ValidateFunction> };
  const requireRuntime = (id: string): unknown => {
    if (!(id in RUNTIME)) throw new Error(`compiled validator needs ${id}`);
    return RUNTIME[id];
  };
  const filename = `agent-play-validators-${key}.cjs`;
  // By file, not by key: a process whose cache folder changes (a test's scratch folder) opens the cache of each.
  const file = path.join(userCacheDir(), 'validators', `${key}.v8`);
  let cache = codeCaches.get(file);
  if (!cache) {
    cache = CompileCache.open(file);
    codeCaches.set(file, cache);
  }
  const script = cache.compile(filename, `(function (module, exports, require) {\n${code}\n})`, key);
  (script.runInThisContext() as (...args: unknown[]) => void)(module, module.exports, requireRuntime);
  return module.exports;
}

/** Writes now the V8 caches of the validators that are written at exit (for tests, and long-lived processes). */
export function saveValidatorCode(): void {
  for (const cache of codeCaches.values()) cache.save();
}

/**
 * The validators compiled into `file`, or `undefined` when it is missing, not a regular file, or does not
 * hold a validator function for each of `names` (a file emptied or cut short by a full disk or a killed
 * process evaluated to no validators, and every later `validate --crds` failed on it): compiled again then,
 * and the file rewritten.
 */
function readCompiled(file: string, key: string, names: readonly string[]): Record<string, ValidateFunction> | undefined {
  const bytes = readCacheFile(file);
  if (bytes === undefined) return undefined;
  try {
    const validators = evaluate(scriptSource(bytes), key);
    return names.every((name) => typeof validators[name] === 'function') ? validators : undefined;
  } catch {
    return undefined;
  }
}

function compileAndStore(request: ValidatorRequest, key: string): Record<string, ValidateFunction> {
  const code = compiledCode(request);
  writeCacheFile(path.join(userCacheDir(), 'validators', `${key}.cjs`), code);
  return evaluate(code, key);
}
