/**
 * Whether a parsed JSON or YAML value is an object: not null, not a list. Defined once for every reader
 * of parsed input (validator, simulator, state, configuration); `V` is what its values are taken to be.
 */
export function isRecord<V = unknown>(value: unknown): value is Record<string, V> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
