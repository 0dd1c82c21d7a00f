// A report path that is not a plain file is written as what it is, never replaced: /dev/stdout and
// /dev/fd/N are the streams they name (a report piped into another program, or appended to the
// log a shell redirected), a FIFO a reader waits on gets the report. A link is never followed (one
// planted in a shared directory must not send a report to the file it names): it is replaced, as
// it always was. Before, every report was written beside its path and renamed over it: as root,
// `--dotenv /dev/null` left a regular file where /dev/null was, and `--summary /dev/stdout`
// replaced the link /dev/stdout. A FIFO nobody reads, or a socket, fails that report alone.
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import {
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCli, runCliProcess } from '../helpers/cli.ts';

const DEMO = fileURLToPath(new URL('../../pipelines/demo.yml', import.meta.url));

function workdir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-report-targets-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('--summary /dev/fd/1 and /dev/stdout write the summary to standard output, in order with the log, and replace nothing', async (t) => {
  const dir = workdir(t);
  const piped = await runCliProcess([
    'run',
    DEMO,
    '--emulator',
    '--summary',
    '/dev/fd/1',
    '--report-json',
    join(dir, 'r.json'),
  ]);
  assert.equal(piped.code, 0, piped.stderr);
  // The reports are written as the run ends, before its last line and the list of reports.
  assert.match(
    piped.stdout,
    /^✔ \[9\/9\] Record the deployment[^\n]*\n## ✅ Release 2026\.11 \(demo\): success\n(?:.|\n)*\npipeline "Release 2026\.11 \(demo\)": success[^\n]*\n(?:.|\n)*report: \/dev\/fd\/1\n/m,
    'the summary between the log before it and the log after it',
  );
  // Standard output redirected to a file by the shell: the summary is appended after the log, which goes on after it.
  const log = join(dir, 'log.txt');
  execFileSync(
    'sh',
    [
      '-c',
      `exec "$0" "$@" > ${JSON.stringify(log)}`,
      process.execPath,
      fileURLToPath(new URL('../../dist/cli.mjs', import.meta.url)),
      'run',
      DEMO,
      '--emulator',
      '--summary',
      '/dev/stdout',
    ],
    { env: { PATH: process.env.PATH ?? '' } },
  );
  const text = readFileSync(log, 'utf8');
  assert.match(
    text,
    /^running "Release 2026\.11 \(demo\)"(?:.|\n)*\n✔ \[9\/9\] Record the deployment[^\n]*\n## ✅ Release 2026\.11 \(demo\): success\n(?:.|\n)*\npipeline "Release 2026\.11 \(demo\)": success[^\n]*\n(?:.|\n)*report: \/dev\/stdout\n/,
    'the log before the summary is kept, and goes on after it',
  );
  assert.equal(readlinkSync('/dev/stdout'), '/proc/self/fd/1', '/dev/stdout is still the link it was');
});

test('a FIFO a reader waits on gets the report and stays a FIFO; a link is replaced, never followed', async (t) => {
  const dir = workdir(t);
  const fifo = join(dir, 'report.fifo');
  execFileSync('mkfifo', [fifo]);
  const reader = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => reader.kill());
  let received = '';
  reader.stdout.on('data', (chunk) => (received += chunk));
  const read = new Promise((resolve) => reader.on('close', resolve));
  mkdirSync(join(dir, 'shared'));
  writeFileSync(join(dir, 'shared', 'report.html'), 'the earlier report');
  symlinkSync(join('shared', 'report.html'), join(dir, 'report.html'));
  const r = await runCli(['run', DEMO, '--emulator', '--report-json', fifo, '--html', join(dir, 'report.html')]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(lstatSync(fifo).isFIFO(), true, 'the FIFO is still a FIFO');
  await read;
  assert.equal(JSON.parse(received).outcome, 'success', 'the reader got the whole JSON report');
  assert.equal(lstatSync(join(dir, 'report.html')).isFile(), true, 'the link was replaced by the report');
  assert.match(readFileSync(join(dir, 'report.html'), 'utf8'), /^<!doctype html>/i);
  assert.equal(
    readFileSync(join(dir, 'shared', 'report.html'), 'utf8'),
    'the earlier report',
    'the file it named is left as it was',
  );
  // A link to a FIFO is a link: replaced, its reader never written to.
  const linked = join(dir, 'linked.fifo');
  execFileSync('mkfifo', [linked]);
  symlinkSync(linked, join(dir, 'to-fifo.json'));
  const again = await runCli(['run', DEMO, '--emulator', '--report-json', join(dir, 'to-fifo.json')]);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(JSON.parse(readFileSync(join(dir, 'to-fifo.json'), 'utf8')).outcome, 'success');
  assert.equal(lstatSync(linked).isFIFO(), true);
});

test('a FIFO nobody reads and a socket fail that report alone, at once: the others are written', async (t) => {
  const dir = workdir(t);
  const fifo = join(dir, 'nobody.fifo');
  execFileSync('mkfifo', [fifo]);
  const socket = join(dir, 'report.sock');
  const server = createServer().listen(socket);
  t.after(() => server.close());
  await new Promise((resolve) => server.on('listening', resolve));
  cpSync(DEMO, join(dir, 'demo.yml'));
  const r = await runCli(['run', join(dir, 'demo.yml'), '--emulator', '--junit', fifo, '--summary', join(dir, 's.md')]);
  assert.equal(r.code, 1, 'a report not written fails the command');
  assert.match(r.stderr, /REPORT_NOT_WRITTEN: --junit .*nobody\.fifo: no process reads this FIFO/);
  assert.match(readFileSync(join(dir, 's.md'), 'utf8'), /## ✅ Release 2026\.11 \(demo\): success/);
  assert.equal(lstatSync(fifo).isFIFO(), true);
  const refused = await runCli(['run', join(dir, 'demo.yml'), '--emulator', '--html', socket]);
  assert.equal(refused.code, 2, 'a socket is refused before the run');
  assert.match(
    refused.stderr,
    /^enginectl: --html .*report\.sock: cannot write there \(a socket: not a file, a FIFO or a terminal\)/,
  );
  assert.equal(lstatSync(socket).isSocket(), true);
});
