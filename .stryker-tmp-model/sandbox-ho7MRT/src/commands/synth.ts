// @ts-nocheck
import { parseAllDocuments } from 'yaml';
import { checkPlatform } from '../config/check-platform';
import { writeManifests } from '../synth/write-manifests';
import { formatFinding } from '../validate/finding';
import type { ManifestFiles } from '../synth/generated-files';
import { type Command, ExitCode, type Io, printUsage } from './command';
import { CONFIG, formatOption, formatOptions, HELP, type OptionSpec, parseOptions } from './options';
import { count } from './plural';

const OPTIONS: readonly OptionSpec[] = [
  CONFIG,
  {
    name: 'out',
    value: 'DIR',
    default: 'dist-manifests',
    complete: 'directory',
    description: 'the output folder, replaced as a whole (default: dist-manifests)',
  },
  formatOption(),
  HELP,
];

const USAGE = `Usage: agent-play synth [--config FILE] [--out DIR] [--format text|json]

Builds the platform from the configuration, validates it as \`agent-play validate\` would (built-in schemas,
metadata and lint rules), and writes one YAML file per concern. On any error nothing is written (exit 1);
warnings are printed and do not block. As JSON: { "written", "out", "files": [{ "name", "objects",
"kinds": { KIND: N } }], "objects", "errors", "warnings", "findings" }.

${formatOptions(OPTIONS)}
Environment:
  AGENT_PLAY_CLI_<AGENT>   bind an agent to another CLI, e.g. AGENT_PLAY_CLI_REX=codex
`;

/** What each file holds: its objects by kind. */
function fileSummaries(files: ManifestFiles): { name: string; objects: number; kinds: Record<string, number> }[] {
  return [...files].map(([name, text]) => {
    const kinds: Record<string, number> = {};
    for (const document of parseAllDocuments(text)) {
      const kind = (document.toJS() as { kind?: unknown } | null)?.kind;
      if (typeof kind === 'string') kinds[kind] = (kinds[kind] ?? 0) + 1;
    }
    return { name, objects: Object.values(kinds).reduce((sum, n) => sum + n, 0), kinds };
  });
}

function run(args: string[], io: Io): number {
  const options = parseOptions(OPTIONS, args, false);
  if (options.flag('help')) return printUsage(io, USAGE);
  const out = options.string('out') as string;
  const json = options.string('format') === 'json';
  const { files, report } = checkPlatform({ file: options.string('config'), env: io.env }, out, io.synthesize);
  const written = report.errors === 0;
  if (written) writeManifests(out, files);
  if (json) {
    const summaries = fileSummaries(files);
    io.out(
      `${JSON.stringify(
        {
          written,
          out,
          files: written ? summaries : [],
          objects: written ? summaries.reduce((sum, file) => sum + file.objects, 0) : 0,
          errors: report.errors,
          warnings: report.findings.length - report.errors,
          findings: report.findings.map((finding) => ({ severity: finding.severity, message: formatFinding(finding) })),
        },
        null,
        2,
      )}\n`,
    );
    return written ? ExitCode.ok : ExitCode.failed;
  }
  for (const finding of report.findings) io.err(`${finding.severity}: ${formatFinding(finding)}\n`);
  if (!written) {
    io.err(`nothing written to ${out}: the platform has ${count(report.errors, 'error')}; fix the configuration or the constructs\n`);
    return ExitCode.failed;
  }
  io.out(`wrote ${count(files.size, 'file')} to ${out}: ${[...files.keys()].join(', ')}\n`);
  return ExitCode.ok;
}

export const synthCommand: Command = {
  name: 'synth',
  summary: "write the platform's manifests (default: the embedded platform) to a folder",
  usage: USAGE,
  options: OPTIONS,
  run,
};
