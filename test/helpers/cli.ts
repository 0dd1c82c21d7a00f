// The CLI as tests drive it. runCli runs the source in this process (src/cli/run-command.ts, the
// code the bundle wraps: the same commands, through a recording CliIO), so a test always tests
// what src/ says and costs no process start; runCliProcess runs the built bundle as a user would,
// a real process with real stdout, stderr and exit code, for what only a process shows (the
// shipping suite, exit codes of a killed run, start-up).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Clock } from '../../src/app/clock.ts';

export const CLI = fileURLToPath(new URL('../../dist/cli.mjs', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Both streams in the order they were written (in a process, as read from its two pipes): what a CI log that reads both shows. */
  output: string;
}

/** A clean environment: the test's own variables only, so no ENGINE_* leaks in from outside. */
export function cleanEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env };
}

export interface CliOptions {
  env?: Record<string, string>;
  input?: string;
  /** The program to run (another build of the CLI); a process. */
  command?: string[];
  /** Run as this user; a process. */
  uid?: number;
  cwd?: string;
  /** Aborts the command as Ctrl-C would (in this process). */
  signal?: AbortSignal;
  /** The run's clock against a real server (in this process): a simulated one the test's emulator reads too. */
  clock?: Clock;
  /** The steady time the run measures durations on (in this process): a test's own. */
  stopwatch?: () => number;
  /** The real time `run --emulator`'s simulated clock moves with besides its waits (in this process): one that stands still. */
  emulatorTime?: () => number;
}

/** The CLI's source, in this process; a process when the options need one (another program, another user, another start directory). */
export async function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  // A start directory of its own is a process's: the commands read relative paths from where they start.
  if (
    options.command ||
    options.uid !== undefined ||
    (options.cwd !== undefined && resolve(options.cwd) !== process.cwd()) ||
    process.env.ENGINECTL_TEST_PROCESS === '1'
  )
    return runCliProcess(args, options);
  const { runCommand } = await import('../../src/cli/run-command.ts');
  const cwd = options.cwd ?? process.cwd();
  let stdout = '';
  let stderr = '';
  let output = '';
  const code = await runCommand(args, {
    stdout: (text) => ((stdout += text), (output += text)),
    stderr: (text) => ((stderr += text), (output += text)),
    stdoutIsTTY: false,
    env: cleanEnv(options.env),
    cwd,
    signal: options.signal ?? new AbortController().signal,
    readFile: (path) => readFile(resolve(cwd, path), 'utf8'),
    readStdin: async () => options.input ?? '',
    clock: options.clock,
    stopwatch: options.stopwatch,
    emulatorTime: options.emulatorTime,
  });
  return { code, signal: null, stdout, stderr, output };
}

/**
 * A node binary another user can run: this one, or, when its directory is closed to them (npx
 * keeps Node 24 under /root/.npm), a copy in the run's temporary directory.
 */
export function nodeFor(uid: number): string {
  if (spawnSync(process.execPath, ['-e', '0'], { uid }).error === undefined) return process.execPath;
  const copy = join(mkdtempSync(join(tmpdir(), 'enginectl-node-')), 'node');
  copyFileSync(process.execPath, copy);
  chmodSync(dirname(copy), 0o755);
  chmodSync(copy, 0o755);
  return copy;
}

/** The built bundle (dist/cli.mjs), or `command`, as a process. */
export function runCliProcess(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const [cmd, ...pre] = options.command ?? [options.uid === undefined ? process.execPath : nodeFor(options.uid), CLI];
  const child = spawn(cmd!, [...pre, ...args], {
    env: cleanEnv(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
    cwd: options.cwd,
    ...(options.uid === undefined ? {} : { uid: options.uid }),
  });
  let stdout = '';
  let stderr = '';
  let output = '';
  child.stdout.on('data', (c) => ((stdout += c), (output += c)));
  child.stderr.on('data', (c) => ((stderr += c), (output += c)));
  child.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, output }));
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
  const child = spawn(process.execPath, [CLI, 'emulator', '--port', '0', ...args], {
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  // Once its output is read whole ('close', not 'exit': stderr may still hold lines after the exit).
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
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

/**
 * This process's PATH without the bin directories of an outer `npx` (.ci/run runs the suite with
 * `npx node@24`): an `npx` run from inside the suite hangs while they lead its PATH, and a user's
 * machine has none of them.
 */
export function pathForNestedNpx(): string[] {
  return (process.env.PATH ?? '').split(':').filter((dir) => !/[\\/]_npx[\\/]|[\\/]node_modules[\\/]\.bin$/.test(dir));
}
