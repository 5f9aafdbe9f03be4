/**
 * Work to do when the process exits (writing a cache), all of it under one `exit` listener: each cache
 * listening for itself added a listener per validator and per stored map, and past ten Node warns of a
 * listener leak (MaxListenersExceededWarning) in the user's own process. A function given twice runs once.
 */
// @ts-nocheck

const savers = new Set<() => void>();
let listening = false;

/** Runs `save` when the process exits, unless it is given again before then (it still runs once). */
export function saveAtExit(save: () => void): void {
  savers.add(save);
  if (listening) return;
  listening = true;
  process.once('exit', saveAllNow);
}

/** Does now what is left for the exit (for a long-lived process, and tests); it is done again at exit. */
export function saveAllNow(): void {
  for (const saver of savers) saver();
}
