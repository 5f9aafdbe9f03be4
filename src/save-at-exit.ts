/**
 * Work to do when the process exits (writing a cache), all of it under one `exit` listener: each cache
 * listening for itself added a listener per validator and per stored map, and past ten Node warns of a
 * listener leak (MaxListenersExceededWarning) in the user's own process. A function given twice runs once.
 *
 * One listener per process, not per copy of this module: a process can hold several (the library's and the
 * validator's bundles in one app, a test runner that loads the modules afresh), and a listener each passed
 * the limit too. Each copy keeps its own work; the one listener does every copy's.
 */
const savers = new Set<() => void>();
let listening = false;

/** Every copy's `saveAllNow`, kept on the global object under a registered symbol, which all copies share. */
const COPIES = Symbol.for('agent-play.save-at-exit');
type WithCopies = typeof globalThis & { [COPIES]?: Set<() => void> };

/** Runs `save` when the process exits, unless it is given again before then (it still runs once). */
export function saveAtExit(save: () => void): void {
  savers.add(save);
  if (listening) return;
  listening = true;
  const global = globalThis as WithCopies;
  let copies = global[COPIES];
  if (copies === undefined) {
    const all = new Set<() => void>();
    copies = global[COPIES] = all;
    process.once('exit', () => {
      for (const saveCopy of all) saveCopy();
    });
  }
  copies.add(saveAllNow);
}

/** Does now what is left for the exit (for a long-lived process, and tests); it is done again at exit. */
export function saveAllNow(): void {
  for (const saver of savers) saver();
}
