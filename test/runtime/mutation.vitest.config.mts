// The tests a mutation run of the runtime program and of the remediation, executor and name-collision models
// (`npm run mutation:runtime`, stryker.runtime.config.json) may use to kill mutants: behaviour tests only.
// test/runtime-program.test.ts (the committed bundle is current, runs under node, needs no package) is left
// out: a mutated source makes the committed bundle stale, so it would "kill" every mutant without saying
// anything of the behaviour.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: [
      'test/runtime/**/*.test.ts',
      // The behaviour tests of the remediation, executor and name-collision models (none holds a snapshot).
      // test/direct-agent-script.test.ts is left out: it runs the direct script in bash for minutes, once per
      // mutant it covers, and asserts the script, not the executor table.
      'test/remediation.test.ts',
      'test/direct-execution.test.ts',
      'test/name-collisions.test.ts',
      'test/config.test.ts',
      'test/config-bad-input.test.ts',
    ],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
