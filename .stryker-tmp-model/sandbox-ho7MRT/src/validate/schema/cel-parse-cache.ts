/**
 * The parsed form of CEL rules, kept in the user's cache folder (`cel/`, beside the validators of
 * validator-cache.ts): @bufbuild/cel's parser took a tenth of a synthesis to read the eleven rules of the
 * built-in Argo schemas again on every run, and reading its result back takes well under a millisecond. The
 * file is keyed by the pinned version of @bufbuild/cel (package.json); it holds the protobuf-es message
 * `parse` returns, written as JSON with its bigints, bytes and unset fields tagged. A missing, unreadable or
 * stale file costs time, never an error.
 */
// @ts-nocheck

import type { parse } from '@bufbuild/cel';
import * as path from 'node:path';
import { pinnedVersion } from '../../pinned-version';
import { storedMapInCache } from '../../stored-map';
import { celLibrary } from './cel-library';

type ParsedExpr = ReturnType<typeof parse>;

/** Bump when what is stored changes in a way the version does not capture. */
const FORMAT = 'cel-parsed-v1';

/** `parse(expression)`, from the cache when it holds it; a parse error is thrown as `parse` throws it. */
export function cachedParse(expression: string): ParsedExpr {
  const stored = storedMapInCache(path.join('cel', `${FORMAT}-${pinnedVersion('@bufbuild/cel')}.json`));
  const known = stored.get(expression);
  if (known !== undefined) return untag(known) as ParsedExpr;
  const parsed = celLibrary().parse(expression);
  stored.set(expression, tag(parsed));
  return parsed;
}

/** JSON of a protobuf-es message: bigints, bytes and unset (undefined) fields as tagged objects. */
export function tag(value: unknown): unknown {
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (value === undefined) return { $unset: true };
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString('base64') };
  if (Array.isArray(value)) return value.map(tag);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, tag(child)]));
  return value;
}

/** The message `tag` wrote. */
export function untag(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(untag);
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if (typeof record.$bigint === 'string') return BigInt(record.$bigint);
  if (record.$unset === true) return undefined;
  if (typeof record.$bytes === 'string') return new Uint8Array(Buffer.from(record.$bytes, 'base64'));
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(record)) result[key] = untag(record[key]);
  return result;
}
