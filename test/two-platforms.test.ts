/**
 * Two platforms in one cdk8s app, each in its namespace (issue 25: `team-a`, `team-b`), the way a user
 * composes them with the library: `validatePlatform` at `app.synth()` and `agent-play validate` on the folder
 * the app writes both report nothing. Both platforms have a Sensor per gate, an EventSource `github` and a
 * bus `default` of the same names; the lint rules look those up within the Sensor's namespace, as Argo
 * Events does. The control moves one EventSource into a third namespace, which validate must then report.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { App } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { AgentPlatform } from '../constructs';
import { validatePlatform } from '../src/validate';
import { runCapturing } from './support/run-cli';
import { useScratchDirs } from './support/scratch-dir';

const scratch = useScratchDirs('agent-play-two-platforms-');

/** The app of the issue: team-b's platform differs (another repository, cleo on codex), so a cross-match would show. */
function twoPlatforms(): App {
  const app = new App({ outdir: scratch() });
  new AgentPlatform(app, 'a', { config: { namespace: 'team-a' } });
  new AgentPlatform(app, 'b', {
    config: { namespace: 'team-b', repositories: [{ name: 'acme/web', service: 'web' }], agents: { cleo: { cli: 'codex' } } },
  });
  return app;
}

describe('two platforms in one app, in two namespaces', () => {
  const app = twoPlatforms();
  const warnings: string[] = [];
  validatePlatform(app, { onWarning: (line) => warnings.push(line) });
  app.synth();

  it('validatePlatform lets app.synth() write both, with no warning', () => {
    const texts = readdirSync(app.outdir).map((file) => readFileSync(path.join(app.outdir, file), 'utf8'));
    expect(texts.join('\n')).toMatch(/namespace: team-a\n/);
    expect(texts.join('\n')).toMatch(/namespace: team-b\n/);
    expect(warnings).toEqual([]);
  });

  it('agent-play validate on the folder the app wrote reports nothing', () => {
    const run = runCapturing(['validate', app.outdir, '--format', 'json']);
    expect(JSON.parse(run.out)).toMatchObject({ findings: [], summary: { errors: 0, warnings: 0 } });
    expect(run.code).toBe(0);
  });

  it('reports an EventSource moved to another namespace (control)', () => {
    // The EventSource's chart file holds it alone: move the whole file to team-c.
    const file = readdirSync(app.outdir).find((name) => {
      const text = readFileSync(path.join(app.outdir, name), 'utf8');
      return text.includes('kind: EventSource\n') && text.includes('namespace: team-a\n') && !text.includes('kind: Sensor\n');
    });
    expect(file).toBeDefined();
    const moved = path.join(app.outdir, file as string);
    writeFileSync(moved, readFileSync(moved, 'utf8').replaceAll('namespace: team-a\n', 'namespace: team-c\n'));
    const run = runCapturing(['validate', app.outdir]);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(
      /Sensor\/gate-waiting-pr-created: .*EventSource "github" is in team-c: put them in one namespace \[events-namespace\]/,
    );
  });
});
