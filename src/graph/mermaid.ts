/** Small helpers for writing Mermaid that always parses: safe node ids and quoted labels. */

/** A node id Mermaid accepts: letters, digits and `_`, prefixed so that it never starts with a digit or a keyword. */
export function nodeId(prefix: string, name: string): string {
  return `${prefix}_${name.replace(/[^A-Za-z0-9]/g, '_')}`;
}

/** A quoted label: Mermaid's `"..."` with `"` written as `#quot;`, lines joined with `<br/>`. */
export function label(...lines: readonly string[]): string {
  return `"${lines.map((line) => line.replace(/"/g, '#quot;')).join('<br/>')}"`;
}
