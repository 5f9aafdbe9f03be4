/**
 * The shape of the source tree: no import cycle (type imports included), and dependencies that point one way:
 * `constructs/` (the library) imports neither `src/` (the program around it) nor `runtime/` (the program the pods
 * run); `runtime/` imports only `constructs/`; the pure model and the runtime steps import no cdk8s; the
 * runtime program's steps import no package at all (they are bundled into one dependency-free file).
 */
// @ts-nocheck

import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..');
const SOURCE_FOLDERS = ['constructs', 'src', 'runtime'];

/** Every TypeScript file under the folders, relative to the root, `/`-separated. */
function sourceFiles(): string[] {
  return SOURCE_FOLDERS.flatMap((folder) =>
    readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => `${folder}/${file.split(path.sep).join('/')}`),
  ).sort();
}

/** What a file imports: relative imports resolved to files, and packages by name. */
function importsOf(file: string, files: ReadonlySet<string>): { files: string[]; packages: string[] } {
  const info = ts.preProcessFile(readFileSync(path.join(ROOT, file), 'utf8'), true, true);
  const local: string[] = [];
  const packages: string[] = [];
  for (const { fileName } of info.importedFiles) {
    if (!fileName.startsWith('.')) {
      packages.push(fileName);
      continue;
    }
    const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), fileName));
    const resolved = [`${base}.ts`, `${base}/index.ts`, base].find((candidate) => files.has(candidate));
    if (resolved !== undefined) local.push(resolved);
  }
  return { files: local, packages };
}

/** The strongly connected components of more than one node (Tarjan), each sorted: the import cycles. */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) as number, low.get(target) as number));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (;;) {
      const member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

const files = sourceFiles();
const fileSet = new Set(files);
const imports = new Map(files.map((file) => [file, importsOf(file, fileSet)]));

describe('the source tree', () => {
  it('finds a cycle when there is one (the check can fail)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cyclesOf(graph)).toEqual([['a', 'b', 'c']]);
    expect(
      cyclesOf(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('has no import cycle, type imports included', () => {
    const graph = new Map([...imports].map(([file, found]) => [file, found.files]));
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('points one way: the library imports neither the command line nor the runtime program; no layer imports the commands', () => {
    const wrong = [...imports]
      .flatMap(([file, found]) => found.files.map((target) => [file, target]))
      .filter(([file, target]) => {
        if (file.startsWith('constructs/')) return !target.startsWith('constructs/');
        if (file.startsWith('runtime/')) return !target.startsWith('constructs/') && !target.startsWith('runtime/');
        // The commands are the outermost layer of the program: the validator, state, config and simulator
        // never import them; only the command line's entry points do.
        const entry = file.startsWith('src/commands/') || ['src/cli.ts', 'src/start-cli.ts', 'src/main.ts'].includes(file);
        return !entry && target.startsWith('src/commands/');
      })
      .map(([file, target]) => `${file} -> ${target}`);
    expect(wrong).toEqual([]);
  });

  it('keeps cdk8s out of the pure model and the runtime steps, and every package out of the runtime program', () => {
    const runtimeClosure = new Set<string>();
    const queue = files.filter((file) => file.startsWith('runtime/'));
    while (queue.length > 0) {
      const file = queue.pop() as string;
      if (runtimeClosure.has(file)) continue;
      runtimeClosure.add(file);
      queue.push(...(imports.get(file)?.files ?? []));
    }
    const packagesOfRuntime = [...runtimeClosure].flatMap((file) =>
      (imports.get(file)?.packages ?? []).filter((name) => !name.startsWith('node:')).map((name) => `${file} imports ${name}`),
    );
    expect(packagesOfRuntime).toEqual([]);
    const pure = files.filter((file) => file.startsWith('constructs/model/') || file.startsWith('constructs/runtime/'));
    const cdk8s = pure.flatMap((file) =>
      (imports.get(file)?.packages ?? [])
        .filter((name) => /^(cdk8s|cdk8s-plus-28|constructs)$/.test(name))
        .map((name) => `${file}: ${name}`),
    );
    expect(cdk8s).toEqual([]);
  });
});
