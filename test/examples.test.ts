import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { App } from 'cdk8s';
import { synthesizeApp } from '../src/synth/synthesize';
import { parseManifests } from './support/synth';

const EXAMPLES = join(__dirname, '..', 'examples');
const names = readdirSync(EXAMPLES).filter((name) => name.endsWith('.ts')).sort();

describe.each(names)('examples/%s', (name) => {
  it('builds an app that synthesizes, with a play whose stages agree with its gates', async () => {
    const example = (await import(join(EXAMPLES, name))) as { buildApp: () => App };
    const objects = parseManifests(synthesizeApp(example.buildApp()));
    const plays = objects.filter((object) => object.kind === 'WorkflowTemplate' && object.metadata.labels?.['workflow-type'] === 'play');
    expect(plays.length).toBeGreaterThan(0);
    for (const play of plays) {
      const templateNames = new Set(play.spec.templates.map((template: any) => template.name));
      const stageEnum: string[] = play.spec.arguments.parameters.find((parameter: any) => parameter.name === 'start-stage').enum;
      const dag = play.spec.templates.find((template: any) => template.name === play.spec.entrypoint).dag.tasks;
      for (const task of dag) expect(templateNames.has(task.template)).toBe(true);
      for (const stage of stageEnum) expect(dag.some((task: any) => task.name === `enter-${stage}`)).toBe(true);
    }
  });
});
