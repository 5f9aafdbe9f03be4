/**
 * A folder inside a repository's checkout (`workingDirectory`, `docsProjectDirectory`): the steps `cd` into
 * it, clone into it and hand it to the agent, so it must stay inside the checkout. Relative only, no `..`
 * segment (`../../etc` or `/etc` sent the direct step out of the workspace), no empty segment, and no segment
 * a command would read as an option.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck


/** The longest path accepted: far beyond any folder of a repository. */
export const MAX_RELATIVE_PATH_LENGTH = 1024;

/**
 * One segment: letters, digits, `.`, `_`, `-`; not `..`, not starting with `-`. The same rule as RE2 (the
 * CodeRun CRD's `pattern`, which the API server checks), where no lookahead is available: a segment starts
 * with a letter, a digit or `_`; or it is `.`, or `.` and a character that is not `.`, or `..` and more.
 */
const SEGMENT = String.raw`(?:[A-Za-z0-9_][A-Za-z0-9._-]*|\.(?:[A-Za-z0-9_-][A-Za-z0-9._-]*)?|\.\.[A-Za-z0-9._-]+)`;

/** A relative path of such segments, as a pattern of RE2 and JavaScript alike. */
export const RELATIVE_PATH_PATTERN = `^${SEGMENT}(?:/${SEGMENT})*$`;

const RELATIVE_PATH = new RegExp(RELATIVE_PATH_PATTERN);

/** Why `path` is not a folder inside the checkout, or `undefined` when it is one. */
export function relativePathProblem(path: string): string | undefined {
  if (path.length === 0) return 'is empty: expected a folder of the repository, such as services/web';
  if (path.length > MAX_RELATIVE_PATH_LENGTH) return `is longer than ${MAX_RELATIVE_PATH_LENGTH} characters`;
  if (RELATIVE_PATH.test(path)) return undefined;
  const segments = path.split('/');
  if (path.startsWith('/')) return 'is absolute: expected a folder relative to the repository, such as services/web';
  if (segments.includes('..')) return 'holds a ".." segment, which leads out of the repository: expected a folder inside it';
  if (segments.includes('')) return 'holds an empty segment ("//" or a "/" at the end): expected a path such as services/web';
  if (segments.some((segment) => segment.startsWith('-'))) return 'holds a segment starting with "-", which a command reads as an option';
  return 'expected letters, digits, ".", "_" and "-" in segments separated by "/", such as services/web';
}
