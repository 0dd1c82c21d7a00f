// A pipeline path that is no plain file: a device that never ends (/dev/zero) is read up to the
// 1 MiB limit and refused with the limit's message; a FIFO or a pipe that stays open (/dev/stdin)
// is read so that the first SIGINT or SIGTERM ends the command (130/143), as everywhere else. The
// CLI runs as a process, from the source: the reading and the signals are the process edge's
// (main.ts), and a hang is killed, not waited on.
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, constants, existsSync, mkdtempSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { cleanEnv } from '../helpers/cli.ts';
import { assertInterrupted as assertInterruptedLine, BIN, startSource, type Ended } from '../helpers/source-process.ts';

const DEMO = fileURLToPath(new URL('../../pipelines/demo.yml', import.meta.url));

function cli(args: string[]): Promise<Ended> {
  return startSource(args).ended;
}

function start(args: string[], stdin: 'ignore' | number = 'ignore') {
  return startSource(args, { stdin });
}

/** Waits for `ready` (the process is where the test wants it), or for the process to end. */
async function until(ready: () => boolean, child: ChildProcess): Promise<void> {
  while (!ready() && child.exitCode === null && child.signalCode === null) await sleep(20);
}

/** The pipeline's read interrupted, in one line and its code, with the signal's exit code. */
function assertInterrupted(r: Ended, signal: 'SIGINT' | 'SIGTERM', file: string): void {
  assertInterruptedLine(
    r,
    signal,
    `${file}: reading the pipeline was interrupted (received ${signal}); nothing was run`,
  );
}

function fifo(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'enginectl-fifo-')), 'pipeline.yml');
  execFileSync('mkfifo', [path]);
  return path;
}

test(
  'a pipeline path of /dev/zero is read up to the 1 MiB limit and refused with it (exit 2), not read until memory runs out',
  { skip: !existsSync('/dev/zero') },
  async () => {
    const r = await cli(['validate', '/dev/zero']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /^\/dev\/zero:1:1 the file is over 1048576 bytes; pipelines are limited to 1048576 bytes \(1 MiB\)\n/,
    );
    assert.doesNotMatch(r.stderr, /Invalid string length|\n\s+at /);
  },
);

test(
  'the first SIGINT ends a validate blocked reading /dev/stdin, a pipe that stays open: exit 130, one line',
  { skip: !existsSync('/dev/stdin') },
  async () => {
    // A pipe, as `producer | enginectl validate /dev/stdin` gives (Node's own stdio pipes are
    // sockets, which /dev/stdin does not open): a FIFO's read end, its write end held and never closed.
    const path = fifo();
    const input = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(path, constants.O_WRONLY);
    const { child, ended, stdout } = start(['validate', DEMO, '/dev/stdin'], input);
    closeSync(input);
    // The first file is told valid: the signals are trapped, and /dev/stdin is read next.
    await until(() => stdout().includes('valid'), child);
    child.kill('SIGINT');
    const r = await ended;
    closeSync(writer);
    assertInterrupted(r, 'SIGINT', '/dev/stdin');
  },
);

test('the first SIGTERM ends a validate waiting for a FIFO nobody writes to: exit 143, one line', async () => {
  const path = fifo();
  const { child, ended, stdout } = start(['validate', DEMO, path]);
  await until(() => stdout().includes('valid'), child);
  child.kill('SIGTERM');
  assertInterrupted(await ended, 'SIGTERM', path);
});

test('the first SIGINT ends a run reading a FIFO whose writer stalls: exit 130, one line, nothing run', async () => {
  const path = fifo();
  const { child, ended } = start(['run', path, '--emulator']);
  // Opened for writing once the CLI has it open for reading (ENXIO until then): the CLI is reading it.
  let writer: number | undefined;
  await until(() => {
    try {
      writer = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
      return true;
    } catch {
      return false;
    }
  }, child);
  writeSync(writer!, 'version: 1\nsteps:\n');
  child.kill('SIGINT');
  const r = await ended;
  closeSync(writer!);
  assertInterrupted(r, 'SIGINT', path);
});

/**
 * The CLI from the source as a process, run by sh with its last argument `name` made by printf:
 * bytes no JavaScript string can pass (a name that is not UTF-8), as a shell passes them.
 */
function withBytes(args: string[], name: string): Promise<Ended> {
  return new Promise((resolve) => {
    const child = spawn(
      'sh',
      ['-c', 'exec "$0" --import tsx "$@" "$(printf "$NAME")"', process.execPath, BIN, ...args],
      { env: { ...cleanEnv(), NAME: name }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

test('a file named with bytes that are not UTF-8 (Node reads them as U+FFFD) is no such file, and the hint says why', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-latin1-'));
  // caf\xe9.yml, as Latin-1 writes "café.yml": the file is there, under a name Node cannot give back.
  writeFileSync(
    Buffer.from(`${dir}/caf\xe9.yml`, 'latin1'),
    'version: 1\nsteps:\n  - uses: assert\n    with: { that: "${{ true }}" }\n',
  );
  const given = `${dir}/caf\uFFFD.yml`;
  const hint = /\n {2}hint: the name holds \uFFFD \(U\+FFFD\), which stands for bytes that are not UTF-8: /;
  const validate = await withBytes(['validate'], `${dir}/caf\\351.yml`);
  assert.equal(validate.code, 2, validate.stderr);
  assert.match(
    validate.stderr,
    new RegExp(`^${given.replace(/[.?*+^$()[\]{}|\\]/g, '\\$&')}:1:1 cannot read the pipeline: no such file\n`),
  );
  assert.match(validate.stderr, hint);
  const report = await withBytes(['report'], `${dir}/caf\\351.yml`);
  assert.equal(report.code, 2, report.stderr);
  assert.match(report.stderr, /^enginectl: report: cannot read .*\(ENOENT\)\n/);
  assert.match(report.stderr, hint);
});
