/**
 * A setup file (vitest.config.mts): fails the test file during which Node warned of a listener leak
 * (MaxListenersExceededWarning: more than ten listeners for one event of one emitter), which Node only prints.
 * The warning came back more than once from caches that each added an `exit` listener (src/save-at-exit.ts).
 */
import { afterAll } from 'vitest';

/** The warnings seen in this worker and not yet reported, under a registered symbol: one listener per worker. */
const SEEN = Symbol.for('agent-play.test.listener-leaks');
const global = globalThis as typeof globalThis & { [SEEN]?: string[] };
const seen = global[SEEN] ?? listen();

function listen(): string[] {
  const warnings: string[] = [];
  global[SEEN] = warnings;
  process.on('warning', (warning) => {
    if (warning.name === 'MaxListenersExceededWarning') warnings.push(warning.message);
  });
  return warnings;
}

afterAll(async () => {
  // Node emits a warning on a later tick than the one that caused it.
  await new Promise((resolve) => setImmediate(resolve));
  const leaks = seen.splice(0);
  if (leaks.length > 0) throw new Error(`Node warned of a listener leak while this file ran: ${leaks.join('; ')}`);
});
