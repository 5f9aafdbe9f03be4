// @ts-nocheck
import { spawn } from 'node:child_process';

/** How a script run ended. */
export interface ScriptRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `script` as a pod does (`bash -c`) with exactly `env`. The script gets its own process group, so
 * that stopping it also stops what it waits on (a back-off sleep); it is stopped after `timeoutMs`, and at
 * once when jq reports a compile error (a program that does not compile never will, so sitting through the
 * script's back-offs would only slow the test).
 */
export function runBash(script: string, env: Record<string, string>, timeoutMs: number): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const stop = () => {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL');
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (/jq: \d+ compile errors?/.test(stderr)) stop();
    });
    const timer = setTimeout(stop, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
