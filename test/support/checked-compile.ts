import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { hashOf, readCachedJson, writeCachedJson } from './build-cache';

/**
 * A TypeScript program's compilation kept between runs, as `tsc --incremental` keeps its verdicts: with every
 * question the compiler asked the file system (does this file or folder exist, what does this file hold,
 * what is in this folder, where does this link lead) and the answer it got. A later compilation with the
 * same compiler, options and root files takes the kept diagnostics and emitted files only when every one of
 * those questions still gets the same answer; otherwise it compiles. Paths under `base` (a scratch folder,
 * another each run) are kept relative to it.
 */

/** One question to the file system and its answer (a file's contents as their hash). */
type Probe = readonly [question: 'file' | 'folder' | 'read' | 'list' | 'link', path: string, answer: string];

interface Kept {
  readonly probes: readonly Probe[];
  readonly diagnostics: string;
  /** The files the compilation wrote, relative to `base`, and their text. */
  readonly written: readonly (readonly [string, string])[];
}

const KIND = 'tsc-programs';
const BASE = '<base>';

/** How a compilation runs: it makes its program on the host it is handed, and returns its formatted diagnostics. */
export type Compilation = (host: ts.CompilerHost) => string;

/**
 * Compiles with `options` and `rootNames` (`compile` makes the program on `host`, which this wraps to note the
 * compiler's questions, and returns its formatted diagnostics), or answers what a kept compilation of the same
 * inputs answered, writing the files it wrote. Returns the diagnostics.
 */
export function checkedCompile(
  base: string,
  options: ts.CompilerOptions,
  rootNames: readonly string[],
  host: ts.CompilerHost,
  compile: Compilation,
): string {
  const portable = (file: string): string => (file.startsWith(`${base}/`) || file === base ? BASE + file.slice(base.length) : file);
  const local = (file: string): string => (file.startsWith(BASE) ? base + file.slice(BASE.length) : file);
  const key = hashOf(
    ts.version,
    JSON.stringify(options, (_, value) => (typeof value === 'string' ? portable(value) : value)),
    ...rootNames.map(portable),
  );
  const kept = readCachedJson(KIND, key) as Kept | undefined;
  if (kept?.probes.every(([question, file, answer]) => ask(question, local(file), portable) === answer)) {
    for (const [file, text] of kept.written) {
      mkdirSync(path.dirname(local(file)), { recursive: true });
      writeFileSync(local(file), text);
    }
    return kept.diagnostics;
  }
  const probes = new Map<string, Probe>();
  const written: [string, string][] = [];
  const note = (question: Probe[0], file: string, answer: string): void => {
    probes.set(`${question}\0${file}`, [question, portable(file), answer]);
  };
  const { getSourceFile, fileExists, directoryExists, readFile, getDirectories, realpath, writeFile } = host;
  // Outermost, as a source file the caller keeps parsed between compilations is not read again.
  host.getSourceFile = (file, ...rest) => {
    const source = getSourceFile.call(host, file, ...rest);
    note('read', file, source === undefined ? '-' : hashOf(source.text));
    return source;
  };
  host.fileExists = (file) => {
    const exists = fileExists.call(host, file);
    note('file', file, String(exists));
    return exists;
  };
  host.directoryExists = (folder) => {
    const exists = directoryExists?.call(host, folder) ?? true;
    note('folder', folder, String(exists));
    return exists;
  };
  host.readFile = (file) => {
    const text = readFile.call(host, file);
    note('read', file, text === undefined ? '-' : hashOf(text));
    return text;
  };
  host.getDirectories = (folder) => {
    const folders = getDirectories?.call(host, folder) ?? [];
    note('list', folder, JSON.stringify(folders));
    return folders;
  };
  host.realpath = (file) => {
    const real = realpath?.call(host, file) ?? file;
    note('link', file, portable(real));
    return real;
  };
  host.writeFile = (file, text, ...rest) => {
    written.push([portable(file), text]);
    writeFile.call(host, file, text, ...rest);
  };
  const diagnostics = compile(host);
  writeCachedJson(KIND, key, { probes: [...probes.values()], diagnostics, written } satisfies Kept);
  return diagnostics;
}

/** What the file system answers now to a question a compilation asked (as the compiler host answers it). */
function ask(question: Probe[0], file: string, portable: (file: string) => string): string {
  switch (question) {
    case 'file':
      return String(ts.sys.fileExists(file));
    case 'folder':
      return String(ts.sys.directoryExists(file));
    case 'read': {
      const text = ts.sys.readFile(file);
      return text === undefined ? '-' : hashOf(text);
    }
    case 'list':
      return JSON.stringify(ts.sys.getDirectories(file));
    case 'link':
      return portable(ts.sys.realpath?.(file) ?? file);
  }
}
