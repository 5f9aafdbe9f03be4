/**
 * Keys that JavaScript objects treat specially. `__proto__` replaces an object's prototype instead of adding
 * an entry, so a zod record silently drops it; `constructor` and `prototype` shadow what every object
 * inherits. As a name (an agent, a CLI, a parameter, a stage result) they would be lost or misread, so every
 * map we read refuses them instead.
 */
// @ts-nocheck

import { z } from 'zod';

/** The keys refused in every map we read: `__proto__`, `constructor` and `prototype`. */
export const RESERVED_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/** The reserved keys of a mapping, in the order they appear (none for anything that is not a mapping). */
export function reservedKeysOf(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.keys(value).filter((key) => RESERVED_KEYS.includes(key));
}

/**
 * A record of string keys that reports a reserved key at its path instead of dropping it. The check runs on
 * the input as read (JSON.parse and the YAML reader keep `__proto__` as an own key), before zod copies it.
 * @internal zod's types stay out of the public declarations.
 */
export function recordWithoutReservedKeys<T extends z.ZodType>(values: T) {
  return z
    .unknown()
    .superRefine((input, context) => {
      for (const key of reservedKeysOf(input)) {
        context.addIssue({
          code: 'custom',
          path: [key],
          message: `"${key}" cannot be used as a key (JavaScript reserves it, and the entry would be lost)`,
        });
      }
    })
    .pipe(z.record(z.string(), values));
}
