// @ts-nocheck
import {
  closeSync,
  existsSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { GENERATED_HEADER, type ManifestFiles } from './generated-files';
import { makeFolder } from '../io/make-folder';

/** Thrown when the output folder cannot be replaced safely. */
export class OutputError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'OutputError';
  }
}

/**
 * Replaces `outDir` with exactly `files`, all at once: the files are written to a sibling folder that then
 * takes the place of the old one, so a reader (ArgoCD, git) never sees half an output. A folder that holds
 * anything we did not write is refused rather than replaced. A symlinked `outDir` (a common GitOps layout)
 * is followed: the folder it points to is replaced and the link stays. What a killed synth left beside the
 * folder is cleaned up first (and an output it had moved aside is put back).
 *
 * @throws OutputError when `outDir` is empty, holds foreign files, is not a folder, is a dangling symlink, or
 * cannot be made or replaced (a mount point, a folder under /proc), with the file system's code
 */
export function writeManifests(outDir: string, files: ManifestFiles): void {
  if (outDir === '') throw new OutputError('--out "": expected a folder (an empty path would be the current folder)');
  const target = followLink(resolve(outDir), outDir);
  const parent = dirname(target);
  try {
    makeFolder(parent);
    recoverInterrupted(parent, basename(target));
  } catch (error) {
    throw new OutputError(`${outDir}: cannot make the folder it goes in (${codeOf(error)}); choose another --out`);
  }
  assertReplaceable(target, outDir);
  try {
    replaceFolder(target, parent, files);
  } catch (error) {
    const code = codeOf(error);
    const why =
      code === 'EBUSY' ? 'EBUSY: a mount point cannot be replaced; pass --out a folder inside it' : `${code}; choose another --out`;
    throw new OutputError(`${outDir}: cannot write the manifests (${why})`);
  }
}

/** The code of a file system error (ENOENT, EACCES...), or its message. */
const codeOf = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/** Writes `files` into a staging folder beside `target`, then puts it in `target`'s place (see writeManifests). */
function replaceFolder(target: string, parent: string, files: ManifestFiles): void {
  const staging = join(parent, `.${basename(target)}.staging-${process.pid}`);
  const retired = join(parent, `.${basename(target)}.retired-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  makeFolder(staging);
  try {
    for (const [name, text] of files) writeFileSync(join(staging, name), text);
    if (existsSync(target)) renameSync(target, retired);
    renameSync(staging, target);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(target) && existsSync(retired)) renameSync(retired, target);
    throw error;
  }
  rmSync(retired, { recursive: true, force: true });
}

/** The real folder behind a symlinked `--out`; the path itself when it is not a link. */
function followLink(target: string, shown: string): string {
  let isLink: boolean;
  try {
    isLink = lstatSync(target).isSymbolicLink();
  } catch {
    return target;
  }
  if (!isLink) return target;
  try {
    return realpathSync(target);
  } catch (error) {
    throw new OutputError(
      `${shown}: is a symlink to nothing (${(error as NodeJS.ErrnoException).code ?? 'error'}); create the folder it points to, or choose another --out`,
    );
  }
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Cleans up after a synth that was killed while writing: its staging folder is removed, and when it had
 * already moved the old output aside (`retired`) but not yet put the new one in place, the old output is
 * put back. Folders of a synth that is still running are left alone.
 */
function recoverInterrupted(parent: string, name: string): void {
  const pattern = new RegExp(`^\\.${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(staging|retired)-(\\d+)$`);
  const target = join(parent, name);
  for (const entry of readdirSync(parent).sort()) {
    const match = pattern.exec(entry);
    if (!match || Number(match[2]) === process.pid || isAlive(Number(match[2]))) continue;
    const left = join(parent, entry);
    if (match[1] === 'retired' && !existsSync(target)) renameSync(left, target);
    else rmSync(left, { recursive: true, force: true });
  }
}

function assertReplaceable(target: string, shown: string): void {
  if (!existsSync(target)) return;
  if (!statSync(target).isDirectory()) throw new OutputError(`${shown}: exists and is not a folder; choose another --out`);
  const foreign = readdirSync(target).filter((name) => !isOurs(join(target, name)));
  if (foreign.length > 0) {
    throw new OutputError(
      `${shown}: holds files agent-play did not write (${foreign.slice(0, 3).join(', ')}); choose an empty or generated folder for --out`,
    );
  }
}

/** A regular `*.yaml` file that starts with our header (only the header is read: the file may be huge). */
function isOurs(path: string): boolean {
  if (!path.endsWith('.yaml') || !lstatSync(path).isFile()) return false;
  const header = Buffer.alloc(Buffer.byteLength(GENERATED_HEADER));
  const fd = openSync(path, 'r');
  try {
    const read = readSync(fd, header, 0, header.length, 0);
    return header.subarray(0, read).toString('utf8') === GENERATED_HEADER;
  } finally {
    closeSync(fd);
  }
}
