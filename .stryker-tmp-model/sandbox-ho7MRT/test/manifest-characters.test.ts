/**
 * `agent-play validate` reports the characters YAML 1.1 readers (kubectl, client-go, ArgoCD) read otherwise
 * than YAML 1.2 readers, or refuse, when a manifest holds them raw (`yaml-characters`); what agent-play
 * writes itself holds none (test/yaml-text.test.ts), so it never trips the check.
 */
// @ts-nocheck

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NOT_YAML_PRINTABLE, YAML_1_1_LINE_BREAK } from '../constructs/model/text-characters';
import { toYamlText } from '../constructs/model/yaml-text';
import { READER_RULES, readManifestText } from '../src/validate/manifest-reader';

const SEED = Number(process.env.FC_SEED ?? 20261123);
const RUNS = Number(process.env.FC_RUNS ?? 200);

const UNIT = fc.constantFrom(
  ...['\u0085', '\u2028', '\u2029', '\u0007', '\u007f', '\u0090', '\ufffe', '\uffff', '\u202e', '\ufeff', '\t'],
  ...['a', 'b', ' ', ':', '#', '😀', 'é'],
);
const prompt = fc.string({ unit: UNIT, minLength: 1, maxLength: 12 }).filter((text) => text.trim() !== '');

const configMap = (value: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'agents' }, data: { rex: value } });
/** The value pasted raw into a literal block, as a hand-written or another tool's manifest may hold it. */
const rawManifest = (value: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: agents\ndata:\n  rex: |-\n    ${value}\n`;
const characterFindings = (text: string) =>
  readManifestText(text, 'm.yaml').findings.filter((finding) => finding.rule === READER_RULES.characters);

describe('yaml-characters', () => {
  it('reports a raw character YAML 1.1 readers take for a line break or refuse, and only those, at its line', () => {
    fc.assert(
      fc.property(prompt, (value) => {
        let findings: ReturnType<typeof characterFindings>;
        try {
          findings = characterFindings(rawManifest(value));
        } catch {
          return; // Text the YAML 1.2 reader itself refuses is reported as not YAML instead.
        }
        const misread = new RegExp(`${YAML_1_1_LINE_BREAK.source}|${NOT_YAML_PRINTABLE.source}`).test(value);
        expect(findings.length > 0, JSON.stringify(value)).toBe(misread);
        for (const finding of findings) expect(finding).toMatchObject({ kind: 'ConfigMap', name: 'agents', line: 7, severity: 'error' });
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('finds nothing in what agent-play writes from the same values', () => {
    fc.assert(
      fc.property(prompt, (value) => {
        expect(characterFindings(toYamlText(configMap(value)))).toEqual([]);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('says what the character is, where, how often, and how to write it', () => {
    const [finding] = characterFindings(rawManifest('one\u2028two\u2028three'));
    expect(finding.message).toBe(
      'line 7: U+2028 (LINE SEPARATOR) written raw (2 times in the file): YAML 1.1 readers (kubectl, client-go, ArgoCD) take it for a line break, YAML 1.2 readers for text, so they read different values; write it as the escape \\u2028 in a double-quoted string',
    );
  });
});
