/**
 * Numbers no Kubernetes field can hold: integer fields are int64 (`activeDeadlineSeconds`, `ttlStrategy`,
 * ports, retries), and a number past ±2^63 (a duration of 99999999999999999999 days becomes 8.64e+24) is
 * refused by the API server's decoder, or by Argo's, instead of meaning "a very long time". No schema type
 * catches it: JSON Schema's `integer` accepts any whole number, however large.
 */
// @ts-nocheck

import type { LintRule, Violation } from '../finding';
import { fieldPath } from '../finding';
import { ANY_KIND } from './object-size';

/**
 * 2^63: the first integer an int64 cannot hold; -2^63 is the smallest it holds. (A double cannot tell 2^63 - 1
 * from 2^63, so the largest int64 written out in full is reported too.)
 */
const INT64_LIMIT = 2 ** 63;

/** Walks every value of an object with one path that grows and shrinks: a copy per node cost more than the check. */
function outOfRange(value: unknown, at: (string | number)[], found: Violation[]): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value >= INT64_LIMIT || value < -INT64_LIMIT) {
      found.push({
        path: fieldPath(...at),
        message: `${value} is outside the range of a 64-bit integer, the widest number a Kubernetes field holds; use a smaller value`,
      });
    }
    return;
  }
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      at.push(index);
      outOfRange(value[index], at, found);
      at.pop();
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) {
      at.push(key);
      outOfRange((value as Record<string, unknown>)[key], at, found);
      at.pop();
    }
  }
}

export const integerRangeRule: LintRule = {
  id: 'integer-range',
  severity: 'error',
  description: 'every number fits a 64-bit integer, the widest number a Kubernetes field holds',
  kinds: [ANY_KIND],
  check: (target) => {
    const found: Violation[] = [];
    outOfRange(target.object, [], found);
    return found;
  },
};
