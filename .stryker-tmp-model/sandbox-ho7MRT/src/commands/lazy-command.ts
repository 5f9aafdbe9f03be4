/**
 * A command whose modules load only when it is used. The compiled command line lists its commands through
 * these (scripts/build.mjs makes the registry of src/commands/index.ts lazy), so that `agent-play validate`
 * does not load cdk8s, nor `agent-play synth` the simulator. Its name is known without loading: a command's
 * module is named after the command.
 */
// @ts-nocheck

import type { Command, Io } from './command';

/**
 * @param name the command's name, which is also its module's name (`./<name>`)
 * @param load loads the command's module and returns the command
 */
export function lazyCommand(name: string, load: () => Command): Command {
  let loaded: Command | undefined;
  const command = (): Command => {
    loaded ??= load();
    if (loaded.name !== name)
      throw new Error(`the module of command "${name}" holds command "${loaded.name}": a command's module is named after it`);
    return loaded;
  };
  return {
    name,
    get summary() {
      return command().summary;
    },
    get usage() {
      return command().usage;
    },
    get options() {
      return command().options;
    },
    get subcommands() {
      return command().subcommands;
    },
    run: (args: string[], io: Io) => command().run(args, io),
  };
}
