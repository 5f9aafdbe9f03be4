/**
 * Values printed to a terminal are shown, never acted on (issue 23 item 9): a configuration or a progress
 * record holding ESC, OSC, NUL, a carriage return or a bidirectional control reaches the screen as `\uXXXX`,
 * while JSON and YAML output keep their values.
 */
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { toYamlText } from '../constructs/model/yaml-text';
import { progressConfigMapOf, progressKeyOf } from '../constructs/progress/progress-layout';
import { visibleText } from '../src/io/visible-text';
import { runCapturing } from './support/run-cli';
import { anyScalarValue } from './support/scalar-value';
import { useScratchDirs } from './support/scratch-dir';

const SEED = Number(process.env.FC_SEED ?? 20261123);
/** What a terminal acts on: C0 controls but tab and line feed, DEL, C1 controls, Unicode line breaks, bidi controls, BOM. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const ACTED_ON = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff\ufffe\uffff]/;
const hostile = fc.string({
  unit: fc.oneof(
    fc.constantFrom('\u001b', '\u001b]0;x\u0007', '\u001b[2J', '\r', '\u0000', '\u009b', '\u202e', '\u2066', '\u2028', '\ufeff', '\u007f'),
    fc.string({ unit: anyScalarValue, maxLength: 3 }),
  ),
  maxLength: 30,
});

const scratch = useScratchDirs('agent-play-escapes-');

describe('visibleText', () => {
  it('leaves nothing a terminal acts on, and JSON and YAML read back the same values', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const shown = visibleText(`${text}\n`);
        expect(ACTED_ON.test(shown), JSON.stringify(shown)).toBe(false);
        expect(JSON.parse(visibleText(JSON.stringify({ text })))).toEqual({ text });
        if (!/[\ud800-\udfff]/.test(text.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''))) {
          expect(parse(visibleText(toYamlText({ text })))).toEqual({ text });
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
    expect(visibleText('a\tb\nc')).toBe('a\tb\nc');
  });
});

describe('the commands print what they read as visible text', () => {
  const screen = '\u001b]0;pwned\u0007\u001b[2J\u001b[32mALL GOOD\r';

  it('config validate: an unknown setting', () => {
    const file = path.join(scratch(), 'config.yaml');
    writeFileSync(file, `${JSON.stringify(screen)}: 1\n`);
    const run = runCapturing(['config', 'validate', '--config', file]);
    expect(run.code).toBe(2);
    expect(run.err).toBe('config: unknown setting "\\u001b]0;pwned\\u0007\\u001b[2J\\u001b[32mALL GOOD\\u000d"\n');
  });

  it('status: a record whose fields carry terminal controls', () => {
    const record = {
      repository: '5dlabs/cto-play-test',
      task: '7',
      workflowName: `play-7${screen}`,
      startedAt: '2026-11-23T07:00:00Z',
      lastUpdated: '2026-11-23T07:30:00Z',
      stage: `implementation${screen}`,
      status: 'failed',
      reason: `${screen}\u202eevil`,
      lastAgent: 'rex\u0000',
    };
    const stdin = JSON.stringify({
      kind: 'List',
      items: [
        {
          kind: 'ConfigMap',
          metadata: { name: progressConfigMapOf(record.repository, 7), labels: { 'play-tracking': 'true' } },
          data: { [progressKeyOf(record.repository, 7)]: JSON.stringify(record) },
        },
      ],
    });
    const text = runCapturing(['status', '-'], { stdin, now: new Date('2026-11-23T08:00:00Z') });
    expect(ACTED_ON.test(text.out), text.out).toBe(false);
    expect(text.out).toContain('implementation\\u001b]0;pwned\\u0007\\u001b[2J\\u001b[32mALL GOOD\\u000d');
    expect(text.out).toContain('failed: \\u001b]0;pwned');
    expect(text.out).toContain('\\u202eevil');
    const json = runCapturing(['status', '--format', 'json', '-'], { stdin, now: new Date('2026-11-23T08:00:00Z') });
    expect(ACTED_ON.test(json.out)).toBe(false);
    expect(JSON.parse(json.out).tasks[0]).toMatchObject({ stage: record.stage, reason: record.reason, lastAgent: record.lastAgent });
  });
});
