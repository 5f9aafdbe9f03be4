/** Every `agent-play` command, in the order `agent-play --help` lists them. Add a command here. */
import type { Command } from './command';
import { simulateCommand } from './simulate';
import { synthCommand } from './synth';
import { validateCommand } from './validate';

export const COMMANDS: readonly Command[] = [synthCommand, validateCommand, simulateCommand];
