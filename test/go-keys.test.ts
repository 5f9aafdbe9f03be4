import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CodeRunLabels, PlayLabels } from '../constructs/model/labels';
import { PlayParameters } from '../constructs/model/play-contract';
import { GO_KEYS_FILE, goConstantName, goKeysSource } from '../scripts/generate-go-keys';

describe("the end-to-end harness's Go keys", () => {
  it('are what the generator writes from constructs/model/labels.ts today (npx tsx scripts/generate-go-keys.ts)', () => {
    expect(readFileSync(GO_KEYS_FILE, 'utf8')).toBe(goKeysSource());
  });

  it('carry the TypeScript values, so a renamed key or play parameter changes the Go constant', () => {
    const source = goKeysSource();
    expect(source).toContain(`const PlayLabelTaskID = ${JSON.stringify(PlayLabels.taskId)}\n`);
    expect(source).toContain(`const CodeRunLabelWorkflowUID = ${JSON.stringify(CodeRunLabels.workflowUid)}\n`);
    expect(source).toContain(`const PlayParameterStartStage = ${JSON.stringify(PlayParameters.startStage)}\n`);
  });

  it('spell initialisms as Go does', () => {
    expect(goConstantName('PlayLabel', 'taskId')).toBe('PlayLabelTaskID');
    expect(goConstantName('CodeRunLabel', 'workflowUid')).toBe('CodeRunLabelWorkflowUID');
    expect(goConstantName('PlayAnnotation', 'prUrl')).toBe('PlayAnnotationPrURL');
    expect(goConstantName('', 'identity')).toBe('Identity');
  });
});
