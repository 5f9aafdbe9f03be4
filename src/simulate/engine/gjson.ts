/**
 * gjson paths, as Argo Events reads event data: keys separated by `.`, `\` escaping the next character,
 * numbers indexing arrays. Wildcards, queries and modifiers are refused.
 */
import { UnsupportedFeatureError } from './unsupported';

export interface GjsonResult {
  readonly exists: boolean;
  readonly value: unknown;
  /** The JSON text of the value (gjson's `Raw`). */
  readonly raw: string;
}

/** The components of a path. */
export function splitPath(path: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let index = 0; index < path.length; index++) {
    const char = path[index];
    if (char === '\\' && index + 1 < path.length) {
      current += path[++index];
    } else if (char === '.') {
      parts.push(current);
      current = '';
    } else if ('*?#|@'.includes(char)) {
      throw new UnsupportedFeatureError(`path "${path}": "${char}" is not supported by the simulator`);
    } else {
      current += char;
    }
  }
  parts.push(current);
  if (parts.some((part) => part === '')) throw new UnsupportedFeatureError(`path "${path}": empty components are not supported`);
  return parts;
}

export function gjsonGet(data: unknown, path: string): GjsonResult {
  let value: unknown = data;
  for (const part of splitPath(path)) {
    if (Array.isArray(value) && /^[0-9]+$/.test(part) && Number(part) < value.length) value = value[Number(part)];
    else if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.prototype.hasOwnProperty.call(value, part)) value = (value as Record<string, unknown>)[part];
    else return { exists: false, value: undefined, raw: '' };
  }
  return { exists: true, value, raw: JSON.stringify(value) };
}

/** gjson's `Result.String()`: strings unquoted, other values as JSON text, null as empty. */
export function gjsonString(result: GjsonResult): string {
  if (!result.exists || result.value === null) return '';
  if (typeof result.value === 'string') return result.value;
  return result.raw;
}
