/**
 * The size of V8's young generation in the command line. V8 starts it at 1 MB and doubles it (its
 * `--semi-space-growth-factor`, 2) each time most of what it held survived, up to 16 MB; every page it grows
 * into is touched for the first time, and on the project's machines such a page costs about 20 microseconds
 * (a minor page fault). A synthesis of the default platform grew it to 16 MB: 3,100 of its 16,400 faults,
 * a tenth of its CPU time. Kept at 1 MB, a large platform (thousands of repositories, whose objects live
 * until they are written) pays instead: more scavenges, objects promoted early, 12% more CPU at 5,000
 * repositories. So the command line starts with the young generation kept small, and a command about to
 * build something large lets it grow again (`letYoungGenerationGrow`).
 *
 * V8 checks a compiled-code cache against the flags of the process that made it (all of them, this one
 * included): a cache is made and read under the flags the command line starts with (`underStartFlags`), or the
 * next run would reject it.
 *
 * The state lives on the global object: the command line's loader (src/start-cli.ts) and its bundle each carry
 * a copy of this module. A process that did not start as the command line (a user's app, the tests) never
 * changes the flag.
 */
import * as v8 from 'node:v8';

const KEPT_SMALL = '--semi-space-growth-factor=1';
/** V8's default. */
const GROWING = '--semi-space-growth-factor=2';

type State = 'kept-small' | 'growing';
const STATE = Symbol.for('agent-play.young-generation');
const globals = globalThis as Record<symbol, State | undefined>;

/** Keeps the young generation at its start size (src/start-cli.ts, before the bundle is compiled). */
export function keepYoungGenerationSmall(): void {
  v8.setFlagsFromString(KEPT_SMALL);
  globals[STATE] = 'kept-small';
}

/** Lets the young generation grow as V8 would, when the command line kept it small; else does nothing. */
export function letYoungGenerationGrow(): void {
  if (globals[STATE] !== 'kept-small') return;
  v8.setFlagsFromString(GROWING);
  globals[STATE] = 'growing';
}

/** Runs `work` (compiling from, or making, a compiled-code cache) under the flags the command line started with. */
export function underStartFlags<T>(work: () => T): T {
  if (globals[STATE] !== 'growing') return work();
  v8.setFlagsFromString(KEPT_SMALL);
  try {
    return work();
  } finally {
    v8.setFlagsFromString(GROWING);
  }
}
