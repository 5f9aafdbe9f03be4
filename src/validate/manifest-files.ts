/**
 * Reads the manifests named on the command line: files, or folders searched recursively for `*.yaml`,
 * `*.yml` and `*.json`, in a sorted, machine-independent order. A path that cannot be read or a file that is
 * not YAML is unusable input: all such problems are collected and thrown together, one line each.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { InputError } from '../commands/command';
import type { Finding, ManifestObject } from './finding';
import { YamlSyntaxError } from './kubernetes-yaml';
import { readManifestText, type ManifestReading } from './manifest-reader';

const MANIFEST_FILE = /\.(ya?ml|json)$/;

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
  for (const named of paths) {
    for (const file of filesUnder(named, problems)) {
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
  const text = readText(file, problems);
  if (text === undefined) return undefined;
  try {
    return readManifestText(text, file);
  } catch (error) {
    if (!(error instanceof YamlSyntaxError)) throw error;
    problems.push(`${file}: not YAML: ${error.message}`);
    return undefined;
  }
}

function filesUnder(named: string, problems: string[]): string[] {
  try {
    if (!statSync(named).isDirectory()) return [named];
    const found = readdirSync(named, { recursive: true, encoding: 'utf8' })
      .filter((entry) => MANIFEST_FILE.test(entry))
      .sort()
      .map((entry) => path.join(named, entry))
      .filter((file) => statSync(file).isFile());
    if (found.length === 0) problems.push(`${named}: no *.yaml, *.yml or *.json files in this folder`);
    return found;
  } catch (error) {
    problems.push(`${named}: ${describeFsError(error)}`);
    return [];
  }
}

function readText(file: string, problems: string[]): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    problems.push(`${file}: ${describeFsError(error)}`);
    return undefined;
  }
}

function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or folder';
  if (code === 'EACCES') return 'permission denied';
  return `cannot be read (${code ?? (error as Error).message})`;
}
