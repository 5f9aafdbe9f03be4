/**
 * The dotted path syntax that gjson (reading) and sjson (writing) share: components separated by `.`,
 * and `\` making the next character literal (so `a\.b` is the one key `a.b`). Each library gives some
 * unescaped characters a special meaning; the caller names those it refuses.
 */
// @ts-nocheck

import { UnsupportedFeatureError } from './unsupported';

export interface PathComponent {
  /** The key, escapes removed: what object keys are compared with. */
  readonly key: string;
  /** The component as written, escapes included: gjson parses array indexes from this text. */
  readonly raw: string;
  /** The first character as written, unless it was escaped (an escaped `@` is not a modifier). */
  readonly lead: string;
}

export interface PathSyntax {
  /** `gjson path` or `sjson path`, for messages. */
  readonly name: string;
  /** Unescaped characters refused anywhere, with the feature each one starts. */
  readonly refused: Readonly<Record<string, string>>;
}

export function refusePath(syntax: PathSyntax, path: string, feature: string): never {
  throw new UnsupportedFeatureError(`${syntax.name} "${path}": ${feature} is not supported by the simulator`);
}

/** Splits `path` into components, refusing empty ones, a trailing `\`, and the syntax's special characters. */
export function splitPath(syntax: PathSyntax, path: string): PathComponent[] {
  const components: PathComponent[] = [];
  let key = '';
  let raw = '';
  let lead = '';
  const finish = () => {
    if (raw === '') refusePath(syntax, path, 'an empty path component');
    components.push({ key, raw, lead });
    key = '';
    raw = '';
    lead = '';
  };
  for (let index = 0; index < path.length; index++) {
    const char = path[index];
    if (char === '\\') {
      // gjson drops a trailing backslash silently; in a read that is surely a mistake, so refuse it.
      if (index + 1 >= path.length) refusePath(syntax, path, 'a trailing "\\"');
      key += path[index + 1];
      raw += char + path[index + 1];
      index++;
      continue;
    }
    if (char === '.') {
      finish();
      continue;
    }
    const feature = syntax.refused[char];
    if (feature !== undefined) refusePath(syntax, path, feature);
    if (raw === '') lead = char;
    key += char;
    raw += char;
  }
  finish();
  return components;
}
