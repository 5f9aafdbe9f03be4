/** Every command (and every subcommand of config) answers --help and -h with its usage, exit 0. */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/commands';
import { CONFIG_SUBCOMMANDS } from '../src/commands/config';
import { runCapturing, runCapturingAsync } from './support/run-cli';

describe('--help', () => {
  it.each(COMMANDS.map((command) => command.name))('agent-play %s --help and -h', async (name) => {
    for (const flag of ['--help', '-h']) {
      const run = await runCapturingAsync([name, flag]);
      expect(run.code, run.err).toBe(0);
      expect(run.out).toMatch(new RegExp(`^Usage: agent-play ${name}\\b`));
      expect(run.err).toBe('');
    }
  });

  it.each(Object.keys(CONFIG_SUBCOMMANDS))('agent-play config %s --help and -h', (name) => {
    for (const flag of ['--help', '-h']) {
      const run = runCapturing(['config', name, flag]);
      expect(run.code, run.err).toBe(0);
      expect(run.out).toMatch(new RegExp(`^Usage: agent-play config ${name}\\b`));
    }
  });

  it('lists every command in agent-play --help', () => {
    const run = runCapturing(['--help']);
    expect(run.code).toBe(0);
    for (const command of COMMANDS) expect(run.out).toContain(`  ${command.name} `);
  });

  it('refuses an unknown config subcommand with the list, exit 2', () => {
    const run = runCapturing(['config', 'edit']);
    expect(run.code).toBe(2);
    expect(run.err).toContain(`unknown subcommand "edit"; subcommands: ${Object.keys(CONFIG_SUBCOMMANDS).join(', ')}`);
  });
});
