import { parseArgs } from 'node:util';
import { checkPlatform } from '../config/check-platform';
import { writeManifests } from '../synth/write-manifests';
import { formatFinding } from '../validate/finding';
import { type Command, ExitCode, HELP_OPTION, type Io, printUsage } from './command';

const USAGE = `Usage: agent-play synth [--config FILE] [--out DIR]

Builds the platform from the configuration, validates it as \`agent-play validate\` would (built-in schemas,
metadata and lint rules), and writes one YAML file per concern. On any error nothing is written (exit 1);
warnings are printed and do not block.

Options:
  --config FILE   the configuration (default: agent-play.yaml when it exists, else the embedded default)
  --out DIR       the output folder, replaced as a whole (default: dist-manifests)
  -h, --help      show this help

Environment:
  AGENT_PLAY_CLI_<AGENT>   bind an agent to another CLI, e.g. AGENT_PLAY_CLI_REX=codex
`;

function run(args: string[], io: Io): number {
  const { values } = parseArgs({
    args,
    options: { config: { type: 'string' }, out: { type: 'string', default: 'dist-manifests' }, ...HELP_OPTION },
    allowPositionals: false,
    strict: true,
  });
  if (values.help) return printUsage(io, USAGE);
  const { files, report } = checkPlatform({ file: values.config, env: io.env }, values.out, io.synthesize);
  for (const finding of report.findings) io.err(`${finding.severity}: ${formatFinding(finding)}\n`);
  if (report.errors > 0) {
    io.err(`nothing written to ${values.out}: the platform has ${report.errors} error(s); fix the configuration or the constructs\n`);
    return ExitCode.failed;
  }
  writeManifests(values.out, files);
  io.out(`wrote ${files.size} files to ${values.out}: ${[...files.keys()].join(', ')}\n`);
  return ExitCode.ok;
}

export const synthCommand: Command = {
  name: 'synth',
  summary: "write the platform's manifests (default: the embedded platform) to a folder",
  usage: USAGE,
  run,
};
