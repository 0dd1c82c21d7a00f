// The CLI from its source as a process (node --import tsx src/cli/bin.ts), for what only a
// process shows: the reading and the signals of the process edge (main.ts). A process deaf to the
// test's signal is killed a minute after it (not after its start, which a loaded machine may make
// slow), and any process a failed test leaves is killed when the file's tests end.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cleanEnv } from './cli.ts';

export const BIN = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** The processes started and not ended yet: killed once the file's tests end (a test failed before its process ended). */
const live = new Set<ChildProcess>();
after(() => live.forEach((child) => child.kill('SIGKILL')));

/** The CLI from the source as a process; killed (code null, SIGKILL) if it has not ended a minute after the test's signal. */
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
  live.add(child);
  let hung: NodeJS.Timeout | undefined;
  const send = child.kill.bind(child);
  child.kill = (signal?: NodeJS.Signals | number) => {
    hung ??= setTimeout(() => send('SIGKILL'), 60_000);
    return send(signal);
  };
  const ended = new Promise<Ended>((resolve) =>
    child.on('close', (code, signal) => (clearTimeout(hung), live.delete(child), resolve({ code, signal, stderr }))),
  );
  return { child, ended, stdout: () => stdout };
}

/** An interrupt told in one line (`line`) and its code, no stack trace, with the signal's exit code. */
export function assertInterrupted(r: Ended, signal: 'SIGINT' | 'SIGTERM', line: string): void {
  const killed = r.signal === 'SIGKILL' ? ` (killed a minute after the ${signal}, not heeded)` : '';
  assert.equal(r.code, signal === 'SIGINT' ? 130 : 143, `exit ${r.code}${killed}; stderr: ${r.stderr}`);
  assert.equal(r.stderr, `enginectl: ${line}\n  code: CANCELLED\n`);
}
