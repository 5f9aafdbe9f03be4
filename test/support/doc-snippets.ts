/**
 * The fenced code blocks of the README and docs/, for the doc test (test/docs.test.ts): each with its file,
 * line, language and text, and the note a writer may put on the line before it:
 *
 *   <!-- doc-test: skip: why it cannot run here -->   reported as a skipped test, with the reason
 *
 * A block without a language (```) is output shown to the reader, not something to run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

export interface DocSnippet {
  /** The file, relative to the project root. */
  readonly file: string;
  /** The line of the opening fence, from 1. */
  readonly line: number;
  readonly language: string;
  readonly text: string;
  /** Why the block is not run, when its writer said so. */
  readonly skip?: string;
}

const FENCE = /^```(\S*)\s*$/;
const NOTE = /^<!--\s*doc-test:\s*skip:\s*(.+?)\s*-->$/;

/** The README and every page of docs/, relative to `root`. */
export function documentationFiles(root: string): string[] {
  const pages = readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...pages];
}

/** The fenced blocks of one Markdown file. */
export function snippetsOf(root: string, file: string): DocSnippet[] {
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
  const snippets: DocSnippet[] = [];
  let open: { line: number; language: string; skip?: string } | undefined;
  let body: string[] = [];
  lines.forEach((text, index) => {
    const fence = FENCE.exec(text);
    if (open === undefined) {
      if (!fence) return;
      const note = NOTE.exec(lines[index - 1]?.trim() ?? '');
      open = { line: index + 1, language: fence[1], skip: note?.[1] };
      body = [];
      return;
    }
    if (text.trim() === '```') {
      snippets.push({ file, line: open.line, language: open.language, text: `${body.join('\n')}\n`, skip: open.skip });
      open = undefined;
      return;
    }
    body.push(text);
  });
  if (open !== undefined) throw new Error(`${file}:${open.line}: a code block that is never closed`);
  return snippets;
}

/**
 * The commands of a shell block: comments dropped, continued lines joined, each pipeline and `&&` list cut
 * into its simple commands, each as its words (quotes kept as written inside a word).
 */
export function shellCommands(text: string): string[][] {
  const joined = text.replace(/\\\n\s*/g, ' ');
  const commands: string[][] = [];
  for (const line of joined.split('\n')) {
    const code = withoutComment(line).trim();
    if (code === '') continue;
    for (const part of code.split(/\s*(?:&&|\|\||\||;)\s*/)) {
      const words = shellWords(part);
      if (words.length > 0) commands.push(words);
    }
  }
  return commands;
}

/** A line without its `#` comment (a `#` inside quotes or a word is kept). */
function withoutComment(line: string): string {
  let quote: string | undefined;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index];
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '#' && (index === 0 || /\s/.test(line[index - 1]))) {
      return line.slice(0, index);
    }
  }
  return line;
}

function shellWords(part: string): string[] {
  return [...part.matchAll(/(?:"[^"]*"|'[^']*'|[^\s"'])+/g)].map((match) => match[0]);
}
