/**
 * `agent-play validate ... | head` closes the pipe before the report is written: the write fails with EPIPE,
 * delivered as an 'error' event that Node turns into a crash with a stack trace. The reader has all it
 * wanted, so the command ends quietly instead, with the exit code it had already decided (commands run
 * synchronously, so the error event arrives after the command returned its code).
 */
// @ts-nocheck


/** Makes a closed pipe on `stream` end the process quietly; other write errors stay errors. */
export function endQuietlyOnClosedPipe(stream: NodeJS.WriteStream, exit: (code: number) => void = (code) => process.exit(code)): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
}
