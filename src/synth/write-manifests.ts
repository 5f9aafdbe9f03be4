import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { GENERATED_HEADER, type ManifestFiles } from './synthesize';

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
 * anything we did not write is refused rather than replaced.
 *
 * @throws OutputError when `outDir` holds foreign files or is not a folder
 */
export function writeManifests(outDir: string, files: ManifestFiles): void {
  const target = resolve(outDir);
  assertReplaceable(target, outDir);
  const parent = dirname(target);
  mkdirSync(parent, { recursive: true });
  const staging = join(parent, `.${basename(target)}.staging-${process.pid}`);
  const retired = join(parent, `.${basename(target)}.retired-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging);
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

function assertReplaceable(target: string, shown: string): void {
  if (!existsSync(target)) return;
  if (!statSync(target).isDirectory()) throw new OutputError(`${shown}: exists and is not a folder; choose another --out`);
  const foreign = readdirSync(target).filter((name) => !isOurs(join(target, name)));
  if (foreign.length > 0) {
    throw new OutputError(`${shown}: holds files agent-play did not write (${foreign.slice(0, 3).join(', ')}); choose an empty or generated folder for --out`);
  }
}

function isOurs(path: string): boolean {
  if (!path.endsWith('.yaml') || !statSync(path).isFile()) return false;
  return readFileSync(path, 'utf8').startsWith(GENERATED_HEADER);
}
