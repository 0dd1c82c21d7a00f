// Runs the committed CLI bundle as a user would: a real process, real stdout, stderr, exit code.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../dist/cli.mjs', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A clean environment: the test's own variables only, so no ENGINE_* leaks in from outside. */
export function cleanEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env };
}

export function runCli(args: string[], options: { env?: Record<string, string>; input?: string; command?: string[]; uid?: number; cwd?: string } = {}): Promise<CliResult> {
  const [cmd, ...pre] = options.command ?? [process.execPath, CLI];
  const child = spawn(cmd!, [...pre, ...args], { env: cleanEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'], cwd: options.cwd, ...(options.uid === undefined ? {} : { uid: options.uid }) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  child.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

export interface CliServer {
  url: string;
  child: ChildProcess;
  /** stderr so far. */
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `enginectl emulator --port 0 ...` and waits for its "listening on" line. */
export async function startCliEmulator(t: TestContext, args: string[] = []): Promise<CliServer> {
  const child = spawn(process.execPath, [CLI, 'emulator', '--port', '0', ...args], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`emulator exited (${code}) before listening: ${stderr}`)));
  });
  const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(first);
  if (!match) throw new Error(`unexpected first line: ${first}`);
  return { url: match[1]!, child, stderr: () => stderr, exited };
}
