/**
 * YAML text that is JSON as `JSON.stringify` writes it (compact or indented by two, with or without a final
 * line break), read with `JSON.parse`: what the constructs write into a resource template's manifest and a
 * podSpecPatch, read by the lint rules many times per synthesis. YAML 1.2 reads such a text as the same
 * value, and requiring the text to be exactly what `JSON.stringify` gives back rules out what the two could
 * read differently (a key twice, which YAML refuses and JSON.parse keeps the last of; numbers JSON.parse
 * rounds or overflows; integer-like keys JSON.parse reorders). Any other text is left to the YAML parser.
 */

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
