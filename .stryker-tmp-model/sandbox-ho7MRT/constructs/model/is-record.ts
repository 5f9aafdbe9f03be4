/**
 * Whether a parsed JSON or YAML value is an object: not null, not a list. Defined once for every reader
 * of parsed input (configuration, validator, simulator, state); `V` is what its values are taken to be.
 * It lives in the model because `constructs/` never imports from `src/`; `src/is-record.ts` re-exports it.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

export function isRecord<V = unknown>(value: unknown): value is Record<string, V> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
