/**
 * How a config path reads in an error: `agents.cleo.cli`, `stages[2].agent`. Its own module, so that the
 * pieces of the config schema can report paths without importing the schema that imports them.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck


/** A config path as people read it: `agents.cleo.cli`, `stages[2].agent`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else text += text.length === 0 ? String(part) : `.${String(part)}`;
  }
  return text.length === 0 ? 'config' : text;
}
