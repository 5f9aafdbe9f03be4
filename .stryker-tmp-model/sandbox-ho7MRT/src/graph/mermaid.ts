/** Small helpers for writing Mermaid that always parses: safe node ids and quoted labels. */
// @ts-nocheck


/** A node id Mermaid accepts: letters, digits and `_`, prefixed so that it never starts with a digit or a keyword. */
export function nodeId(prefix: string, name: string): string {
  return `${prefix}_${name.replace(/[^A-Za-z0-9]/g, '_')}`;
}

/** Mermaid's entity codes for what would end a quoted label or be read as HTML in it. */
const ENTITIES: Readonly<Record<string, string>> = { '"': '#quot;', '&': '#amp;', '<': '#lt;', '>': '#gt;' };

/** A quoted label: Mermaid's `"..."` with `"`, `&`, `<` and `>` written as entity codes, lines joined with `<br/>`. */
export function label(...lines: readonly string[]): string {
  return `"${lines.map((line) => line.replace(/["&<>]/g, (character) => ENTITIES[character])).join('<br/>')}"`;
}
