/**
 * How the command line ends once a command returned its exit code. A command runs synchronously and leaves
 * nothing pending, so the process may end at once; left to end by itself, Node first runs the event loop
 * dry, which finishes the garbage collection the run had started, and that was a twentieth of an
 * `agent-play synth`. It ends at once only when everything written to stdout and stderr has been handed to
 * the system (always on Linux; a pipe on macOS may still hold some), else it lets the writes drain first.
 * `process.exit` runs the 'exit' handlers, so the caches are still written.
 */
// @ts-nocheck


/** The part of a stream this reads. */
export interface WrittenStream {
  readonly writableLength: number;
}

/**
 * Ends the process with `code` now when nothing written waits in `streams`, else sets `process.exitCode`
 * and lets it end when the writes are done.
 * @param streams @default stdout and stderr
 * @param exit @default process.exit
 */
export function exitWhenWritten(
  code: number,
  streams: readonly WrittenStream[] = [process.stdout, process.stderr],
  exit: (code: number) => void = (exitCode) => process.exit(exitCode),
): void {
  process.exitCode = code;
  if (streams.every((stream) => stream.writableLength === 0)) exit(code);
}
