/**
 * A deep copy of plain data (objects, arrays, strings, numbers, booleans, null and undefined), as a
 * template, a spec or a config holds it: what `structuredClone` gives for such data, at about a seventh of
 * its cost. A play holds some forty kilobytes of templates that each construct copies on the way in, and for
 * a thousand repositories structuredClone's serialize-then-deserialize was a twelfth of the synthesis.
 * Anything else (a Date, a Map, a class instance) is handed to `structuredClone`, so the result is always
 * what it would give, an error included. The data must not refer to itself, which no manifest can.
 */
// @ts-nocheck

export function plainCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(plainCopy) as T;
  // structuredClone refuses a function or a symbol (DataCloneError): so does this.
  if (typeof value === 'function' || typeof value === 'symbol') return structuredClone(value);
  if (value === null || typeof value !== 'object') return value;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return structuredClone(value);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = plainCopy((value as Record<string, unknown>)[key]);
    // A key "__proto__" (JSON.parse makes it an own key) must stay a key, not become the copy's prototype.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: item, writable: true, enumerable: true, configurable: true });
    else copy[key] = item;
  }
  return copy as T;
}
