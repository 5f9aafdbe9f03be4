/**
 * YAML text that is JSON as `JSON.stringify` writes it (compact or indented by two, with or without a final
 * line break), read with `JSON.parse`: what the constructs write into a resource template's manifest and a
 * podSpecPatch, read by the lint rules many times per synthesis. YAML 1.2 reads such a text as the same
 * value, and requiring the text to be exactly what `JSON.stringify` gives back rules out what the two could
 * read differently (a key twice, which YAML refuses and JSON.parse keeps the last of; numbers JSON.parse
 * rounds or overflows; integer-like keys JSON.parse reorders). Any other text is left to the YAML parser.
 */
// @ts-nocheck


/** Not worth the check: a key YAML and JSON.parse give different objects for. */
const PROTO_KEY = '"__proto__"';

/** The value of `text` when it is canonical JSON, else `undefined` (read it as YAML). */
export function canonicalJsonValue(text: string): { readonly value: unknown } | undefined {
  const first = text.charCodeAt(0);
  // `{` or `[`: a scalar document (a bare number, say) is rare and left to YAML.
  if ((first !== 0x7b && first !== 0x5b) || text.includes(PROTO_KEY)) return undefined;
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  const indented = body.includes('\n');
  return JSON.stringify(value, null, indented ? 2 : undefined) === body ? { value } : undefined;
}

/** The word Argo's `{{...}}` placeholders stand as while a manifest is checked (see resource-manifest.ts). */
export const PLACEHOLDER_WORD = 'placeholder';

/**
 * The value YAML reads from `manifest` once each `{{...}}` is replaced by the plain word `placeholder`, when
 * the manifest is canonical JSON with placeholders as values (what the constructs write: a placeholder in a
 * JSON string, or a bare one where a JSON value goes, which YAML reads as that word); else `undefined`.
 */
export function canonicalJsonWithPlaceholders(manifest: string): { readonly value: unknown } | undefined {
  let text = '';
  let inString = false;
  let start = 0;
  for (let i = 0; i < manifest.length; i += 1) {
    const ch = manifest.charCodeAt(i);
    if (inString && ch === 0x5c) {
      i += 1; // an escaped character, `\"` included
    } else if (ch === 0x22) {
      inString = !inString;
    } else if (ch === 0x7b && manifest.charCodeAt(i + 1) === 0x7b) {
      const end = manifest.indexOf('}}', i + 2);
      // What `\{\{[^{}]*\}\}` would not match as one placeholder here is left to YAML.
      if (end < 0 || /[{}]/.test(manifest.slice(i + 2, end))) return undefined;
      text += manifest.slice(start, i) + (inString ? PLACEHOLDER_WORD : `"${PLACEHOLDER_WORD}"`);
      i = end + 1;
      start = i + 1;
    }
  }
  return canonicalJsonValue(text + manifest.slice(start));
}
