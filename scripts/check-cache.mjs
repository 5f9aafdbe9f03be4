// Remembers which of npm test's checks (the type check, the lint) passed on exactly the files at hand, so that
// scripts/test.mjs can skip a check that would only pass again: both are pure functions of the project's files
// and of the installed packages. The key is the SHA-256 of the path and content of every file git does not
// ignore, tracked or not (what tsc and biome read of the project: both leave git-ignored files alone), and of
// node_modules/.package-lock.json, which npm writes on every install (what they read of node_modules). A pass
// is kept in node_modules/.cache/agent-play/checks/NAME under the key the run started with, and only when no
// file changed while the check ran (its size, modification time and inode were the same at the end). Without
// git (an unpacked tarball) nothing is remembered and every check runs.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const FOLDER = 'node_modules/.cache/agent-play/checks';
const INSTALLED = 'node_modules/.package-lock.json';

/** The files git does not ignore, tracked or not, sorted; undefined outside a git checkout. */
function projectFiles(root) {
  try {
    const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
    return [...new Set(listed.split('\0').filter((file) => file !== ''))].sort().map((file) => join(root, file));
  } catch {
    return undefined;
  }
}

/** A file's size, modification time and inode, or what else it is: a change shows in this line. */
function statLine(file) {
  const stat = lstatSync(file, { throwIfNoEntry: false });
  if (stat === undefined) return `${file} missing`;
  return `${file} ${stat.isSymbolicLink() ? 'link' : stat.isFile() ? 'file' : 'other'} ${stat.size} ${stat.mtimeMs} ${stat.ino}`;
}

/** What a file is, for the key: its content, a link's target, or that it is missing (deleted, not yet staged). */
function content(file) {
  const stat = lstatSync(file, { throwIfNoEntry: false });
  if (stat === undefined) return Buffer.from('\0missing');
  if (stat.isSymbolicLink()) return Buffer.from(`\0link ${readlinkSync(file)}`);
  if (!stat.isFile()) return Buffer.from('\0other');
  return readFileSync(file);
}

/** The key of the files as they are, and their sizes, times and inodes (to notice a change during a check). */
function snapshot(root, files) {
  // The times first: a file written while it is read shows as a change at the end.
  const stats = statsNow(root, files);
  const hash = createHash('sha256');
  for (const file of [...files, join(root, INSTALLED)]) {
    const bytes = content(file);
    hash.update(`${relative(root, file)}\0${bytes.length}\0`).update(bytes);
  }
  return { key: hash.digest('hex'), stats };
}

function statsNow(root, files) {
  return [...files, join(root, INSTALLED)].map(statLine).join('\n');
}

/**
 * The cache of check passes for the files of the project at `root` as they are now. `disabled` (or no git)
 * makes `passed` always false and `remember` do nothing.
 */
export function checkCache(disabled, root = '.') {
  const files = disabled ? undefined : projectFiles(root);
  if (files === undefined) return { passed: () => false, remember: () => {} };
  const { key, stats } = snapshot(root, files);
  const record = (name) => join(root, FOLDER, name);
  return {
    passed: (name) => existsSync(record(name)) && readFileSync(record(name), 'utf8') === key,
    remember: (name) => {
      // A file edited while the check ran: what passed may not be what is there now.
      if (statsNow(root, files) !== stats || projectFiles(root)?.join('\0') !== files.join('\0')) return;
      mkdirSync(join(root, FOLDER), { recursive: true });
      writeFileSync(`${record(name)}.tmp`, key);
      renameSync(`${record(name)}.tmp`, record(name));
    },
  };
}
