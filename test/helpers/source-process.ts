// The CLI from its source as a process (node --import tsx src/cli/bin.ts), for what only a
// process shows: the reading and the signals of the process edge (main.ts). A hang is killed a
// minute on, not waited on.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cleanEnv } from './cli.ts';

export const BIN = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** The CLI from the source as a process; killed (code null, SIGKILL) if it has not ended a minute on. */
export function startSource(
  args: string[],
  options: { stdin?: 'ignore' | 'pipe' | number; env?: Record<string, string> } = {},
): { child: ChildProcess; ended: Promise<Ended>; stdout: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, ...args], {
    env: cleanEnv(options.env),
    stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const hung = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const ended = new Promise<Ended>((resolve) =>
    child.on('close', (code, signal) => (clearTimeout(hung), resolve({ code, signal, stderr }))),
  );
  return { child, ended, stdout: () => stdout };
}

/** An interrupt told in one line (`line`) and its code, no stack trace, with the signal's exit code. */
export function assertInterrupted(r: Ended, signal: 'SIGINT' | 'SIGTERM', line: string): void {
  const killed = r.signal === 'SIGKILL' ? ` (killed a minute on: the ${signal} was not heeded)` : '';
  assert.equal(r.code, signal === 'SIGINT' ? 130 : 143, `exit ${r.code}${killed}; stderr: ${r.stderr}`);
  assert.equal(r.stderr, `enginectl: ${line}\n  code: CANCELLED\n`);
}
