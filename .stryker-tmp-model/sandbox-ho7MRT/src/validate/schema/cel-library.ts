/**
 * @bufbuild/cel, loaded when a CEL rule is first parsed or evaluated rather than when the validator is: its
 * start-up (the protobuf descriptors of the CEL AST) was a twentieth of a synthesis, and a run whose CEL
 * verdicts are all kept in the user cache (cel-verdict-cache.ts) needs none of it.
 */
// @ts-nocheck

import type * as CelLibrary from '@bufbuild/cel';

let library: typeof CelLibrary | undefined;

/** The CEL library, loaded on first use. */
export function celLibrary(): typeof CelLibrary {
  // A require the bundler still follows (the command line carries the library), run only when called.
  library ??= require('@bufbuild/cel') as typeof CelLibrary;
  return library;
}
