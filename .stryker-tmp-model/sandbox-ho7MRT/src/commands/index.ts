/** Every `agent-play` command, in the order `agent-play --help` lists them. Add a command here. */
// @ts-nocheck

import type { Command } from './command';
import { configCommand } from './config';
import { graphCommand } from './graph';
import { resumeCommand } from './resume';
import { simulateCommand } from './simulate';
import { statusCommand } from './status';
import { synthCommand } from './synth';
import { validateCommand } from './validate';

export const COMMANDS: readonly Command[] = [
  synthCommand,
  validateCommand,
  simulateCommand,
  statusCommand,
  resumeCommand,
  configCommand,
  graphCommand,
];
