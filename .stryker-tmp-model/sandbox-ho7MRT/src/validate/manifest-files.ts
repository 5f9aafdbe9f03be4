/**
 * Reads the manifests named on the command line: files, or folders searched recursively for `*.yaml`,
 * `*.yml` and `*.json`, in a sorted, machine-independent order, each real file once. A path that cannot be
 * read (a symlink loop, a FIFO, a device, a file over the size limit) or a file that is not YAML (an alias
 * bomb, thousands of levels of nesting) is unusable input: all such problems are collected and thrown
 * together, one line each, after every other file was read.
 */
// @ts-nocheck

import { readdirSync, realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { InputError } from '../io/input-error';
import { describeFsError, readTextFile, UnreadableFileError } from '../io/read-text-file';
import type { Finding, ManifestObject } from './finding';
import { YamlSyntaxError } from './kubernetes-yaml';
import { readManifestText, type ManifestReading } from './manifest-reader';

const MANIFEST_FILE = /\.(ya?ml|json)$/;

/** The manifest files found under the paths given, in a stable order. */
export interface ManifestSet {
  /** The files read, as named (a folder's files joined to the folder as the user wrote it). */
  readonly files: readonly string[];
  readonly objects: readonly ManifestObject[];
  readonly findings: readonly Finding[];
}

/**
 * The objects of every manifest under `paths`.
 * @throws InputError listing every path that does not exist or cannot be read, and every file that is not YAML
 */
export function readManifestPaths(paths: readonly string[]): ManifestSet {
  const problems: string[] = [];
  const files: string[] = [];
  const objects: ManifestObject[] = [];
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const named of paths) {
    for (const file of filesUnder(named, problems, seen)) {
      files.push(file);
      const reading = readFile(file, problems);
      objects.push(...(reading?.objects ?? []));
      findings.push(...(reading?.findings ?? []));
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  return { files, objects, findings };
}

function readFile(file: string, problems: string[]): ManifestReading | undefined {
  let text: string;
  try {
    text = readTextFile(file);
  } catch (error) {
    if (!(error instanceof UnreadableFileError)) throw error;
    problems.push(`${file}: ${error.message}`);
    return undefined;
  }
  try {
    return readManifestText(text, file);
  } catch (error) {
    if (!(error instanceof YamlSyntaxError)) throw error;
    problems.push(`${file}: not YAML: ${error.message}`);
    return undefined;
  }
}

/**
 * The manifest files a named path stands for, each once: a file as named, a folder searched recursively in
 * sorted order, following symlinks (a GitOps layout links folders together) but entering each real folder
 * only once, so a link back to a parent ends instead of looping. `seen` holds the real path of every file and
 * folder taken so far, across all named paths.
 */
function filesUnder(named: string, problems: string[], seen: Set<string>): string[] {
  const resolved = resolve(named);
  if ('error' in resolved) {
    problems.push(`${named}: ${describeFsError(resolved.error)}`);
    return [];
  }
  const { real, isFolder } = resolved;
  if (seen.has(real)) return [];
  seen.add(real);
  if (!isFolder) return [named];
  const found = walk(named, problems, seen);
  if (found.length === 0) problems.push(`${named}: no *.yaml, *.yml or *.json files in this folder`);
  return found;
}

function walk(folder: string, problems: string[], seen: Set<string>): string[] {
  let entries: string[];
  try {
    entries = readdirSync(folder).sort();
  } catch (error) {
    problems.push(`${folder}: ${describeFsError(error)}`);
    return [];
  }
  const found: string[] = [];
  for (const entry of entries) {
    const entryPath = path.join(folder, entry);
    const resolved = resolve(entryPath);
    if ('error' in resolved) {
      // A dangling or looping link that names a manifest is worth saying; other clutter is not ours to judge.
      if (MANIFEST_FILE.test(entry)) problems.push(`${entryPath}: ${describeFsError(resolved.error)}`);
      continue;
    }
    const { real, isFolder } = resolved;
    if (seen.has(real) || (!isFolder && !MANIFEST_FILE.test(entry))) continue;
    seen.add(real);
    found.push(...(isFolder ? walk(entryPath, problems, seen) : [entryPath]));
  }
  return found;
}

/** Where a path really leads (links followed) and whether that is a folder, or why it cannot be followed. */
function resolve(named: string): { readonly real: string; readonly isFolder: boolean } | { readonly error: unknown } {
  try {
    const real = realpathSync(named);
    return { real, isFolder: statSync(real).isDirectory() };
  } catch (error) {
    return { error };
  }
}
