/**
 * The characters that make text mean something else to one of its readers than to another: YAML 1.1 readers
 * (Go's yaml.v2 under sigs.k8s.io/yaml: kubectl, client-go, ArgoCD) against YAML 1.2 readers, and a terminal
 * or an editor against the person reading it. The YAML writer escapes them (yaml-text.ts), the validator
 * reports them in manifests it reads, and the command line shows them as escapes rather than letting a
 * terminal interpret them (src/io/visible-text.ts). Go's rules are in yaml.v2's readerc.go (the printable
 * set) and scannerc.go (`is_break`).
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck


/**
 * NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR: line breaks to a YAML 1.1 reader, ordinary text to YAML 1.2.
 * Written raw in a block scalar, the rest of the line becomes YAML of its own to kubectl.
 */
export const YAML_1_1_LINE_BREAK = /[\u0085\u2028\u2029]/;

/**
 * Characters a YAML reader refuses when written raw (outside YAML's printable set): C0 controls but tab, line
 * feed and carriage return; DEL; C1 controls but NEL; U+FFFE and U+FFFF; surrogates (a lone one; a pair is
 * one character of the astral planes, which is printable).
 */
export const NOT_YAML_PRINTABLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u0084\u0086-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Characters that change how the text around them shows without showing themselves: the bidirectional
 * controls (Trojan Source: text that reads in another order than it runs), the zero-width no-break space
 * (a byte order mark inside text, which Go's reader drops at the start of a line).
 */
export const INVISIBLE_FORMAT = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

/** A lone UTF-16 surrogate: no UTF-8 text (so no Kubernetes object, no file) can hold it. */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** `U+2028 (LINE SEPARATOR)`: a character named for a message. */
export function describeCharacter(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const name = CHARACTER_NAMES[code] ?? characterKind(code);
  return `${hex} (${name})`;
}

const CHARACTER_NAMES: Readonly<Record<number, string>> = {
  0: 'NUL',
  27: 'ESCAPE',
  127: 'DELETE',
  133: 'NEXT LINE',
  8232: 'LINE SEPARATOR',
  8233: 'PARAGRAPH SEPARATOR',
  65279: 'ZERO WIDTH NO-BREAK SPACE',
  65534: 'a noncharacter',
  65535: 'a noncharacter',
};

function characterKind(code: number): string {
  if (code < 0x20) return 'a control character';
  if (code >= 0x80 && code <= 0x9f) return 'a C1 control character';
  if (code >= 0xd800 && code <= 0xdfff) return 'a lone surrogate';
  return 'a bidirectional control';
}
