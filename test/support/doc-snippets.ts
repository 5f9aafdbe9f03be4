/**
 * The fenced code blocks of the README and docs/, for the doc test (test/docs.test.ts): each with its file,
 * line, language and text, and the note a writer may put on the line before it:
 *
 *   <!-- doc-test: skip: why it cannot run here -->   reported as a skipped test, with the reason
 *
 * A block without a language (```) or marked `text` is output shown to the reader, not something to run.
 * Shell blocks are cut into their simple commands here, and the files their here-documents write are kept
 * apart, so that the test can check each command and each written file.
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

/** The languages of blocks shown to the reader as output, which nothing runs. */
export const OUTPUT_LANGUAGES: readonly string[] = ['', 'text'];

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
  return snippetsOfText(file, readFileSync(path.join(root, file), 'utf8'));
}

/** The fenced blocks of a Markdown text, named as coming from `file`. */
export function snippetsOfText(file: string, markdown: string): DocSnippet[] {
  const lines = markdown.split('\n');
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

/** A shell block read: its simple commands and the files its here-documents write (`cat > FILE <<'EOF'`). */
export interface ShellBlock {
  /** Each simple command as its words (quotes kept as written inside a word, redirections dropped). */
  readonly commands: string[][];
  /** The text of each here-document that `cat > FILE` writes, by FILE. */
  readonly writtenFiles: ReadonlyMap<string, string>;
}

/**
 * The commands of a shell block: comments dropped, continued lines joined, here-documents taken out, each
 * pipeline, list and process substitution (`<(...)`, `$(...)`) cut into its simple commands.
 */
export function readShell(text: string): ShellBlock {
  const script = withoutHereDocuments(text.replace(/\\\n\s*/g, ' '));
  const commands: string[][] = [];
  const writtenFiles = new Map<string, string>();
  for (const { line, document } of script) {
    const code = withoutComment(line).trim();
    if (code === '') continue;
    // A pipe between words (`a | b`) cuts; one inside a word is a synopsis' alternatives (`text|json`).
    for (const part of code.split(/\s*(?:&&|\|\||;|[<$]\(|\))\s*|\s+\|\s+/)) {
      const words = withoutRedirections(shellWords(part));
      if (words.length > 0) commands.push(words);
      const target = /(?:^|\s)cat\s+>\s*(\S+)/.exec(part)?.[1];
      if (document !== undefined && target !== undefined) writtenFiles.set(target, document);
    }
  }
  return { commands, writtenFiles };
}

/** The lines of a script, each with the here-document it opens (`<<'EOF'` ... `EOF`), whose lines are taken out. */
function withoutHereDocuments(text: string): { line: string; document?: string }[] {
  const lines = text.split('\n');
  const script: { line: string; document?: string }[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index];
    const opener = /<<-?\s*(['"]?)(\w+)\1/.exec(line);
    if (!opener) {
      script.push({ line });
      continue;
    }
    const end = lines.findIndex((candidate, at) => at > index && candidate.trim() === opener[2]);
    if (end < 0) throw new Error(`a here-document ${opener[2]} that is never closed`);
    script.push({ line: line.replace(opener[0], ''), document: `${lines.slice(index + 1, end).join('\n')}\n` });
    index = end;
  }
  return script;
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

/** The words of a command without its redirections (`> FILE`, `2>&1`, `>out.json`, `< in`). */
function withoutRedirections(words: readonly string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < words.length; index += 1) {
    const operator = /^\d*(?:>>?|<)(&\d+)?/.exec(words[index]);
    if (!operator) kept.push(words[index]);
    else if (operator[0] === words[index] && operator[1] === undefined) index += 1; // the target is the next word
  }
  return kept;
}
