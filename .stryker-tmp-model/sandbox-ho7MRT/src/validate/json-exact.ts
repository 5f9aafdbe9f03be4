/**
 * Whether JSON gives back exactly this value: plain objects, arrays, strings, booleans, null and finite
 * numbers other than -0. A value read from YAML may be none of these (`.nan`, `-0`, `!!binary` bytes, a
 * `!!set`), and a cache keyed or filled by its JSON must then not be used.
 */
// @ts-nocheck

export function jsonExact(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every(jsonExact);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.keys(value).every((key) => key !== '__proto__' && jsonExact((value as Record<string, unknown>)[key]));
}
