// A ca-file that is a FIFO nobody writes to (or a directory, a socket, a device) is refused as
// CA_FILE_UNREADABLE, from what it is, never waited on: it was read in line, so a FIFO nobody
// writes to blocked the process, deaf to Ctrl-C and SIGTERM. A pipe a writer fills is read. The CLI as a process: a hang
// here would have held the test's own process.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, cleanEnv } from '../helpers/cli.ts';
import { ROOT } from '../helpers/action.ts';

test('api --ca-file naming a FIFO or a directory is CA_FILE_UNREADABLE saying what it is, never blocked on it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-ca-fifo-'));
  const fifo = join(dir, 'ca.pem');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo');
  const ended = new AbortController();
  t.after(() => ended.abort());
  for (const [file, kind] of [
    [fifo, 'is a FIFO nobody writes to'],
    [dir, 'is not a file \\(a directory\\)'],
  ]) {
    const child = spawn(process.execPath, [CLI, 'api', 'GET', '/api/monitoring/v1/engines', '--ca-file', file!], {
      env: cleanEnv({ ENGINE_URL: 'https://127.0.0.1:9', ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Killed should it hang: after a minute, or when the test ends.
    const hung = setTimeout(() => child.kill('SIGKILL'), 60_000);
    ended.signal.addEventListener('abort', () => child.kill('SIGKILL'));
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(hung);
    const said = `${file}: exit ${code}\n${out}`;
    assert.equal(code, 2, said);
    assert.match(out, new RegExp(`cannot read the CA file .*: it ${kind}`), said);
    assert.match(out, /code: CA_FILE_UNREADABLE/, said);
  }
});

test("api --ca-file given as a pipe a writer fills (a shell's <(...), /dev/stdin) is read: a CA from a secret need not be written to disk", async (t) => {
  const pem = join(ROOT, 'test/fixtures/tls/server-cert.pem');
  const ended = new AbortController();
  t.after(() => ended.abort());
  const api = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} api GET /api/monitoring/v1/engines`;
  for (const [how, script] of [
    ['<(cat ca.pem)', `${api} --ca-file <(cat ${JSON.stringify(pem)})`],
    ['/dev/stdin, a pipe', `cat ${JSON.stringify(pem)} | ${api} --ca-file /dev/stdin`],
  ] as const) {
    const child = spawn('bash', ['-c', script], {
      // Nothing listens on port 9: the call is refused once the CA is read.
      env: cleanEnv({ ENGINE_URL: 'https://127.0.0.1:9', ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const hung = setTimeout(() => child.kill('SIGKILL'), 60_000);
    ended.signal.addEventListener('abort', () => child.kill('SIGKILL'));
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(hung);
    const said = `${how}: exit ${code}\n${out}`;
    assert.doesNotMatch(out, /CA_FILE/, said);
    assert.match(out, /code: API_CONNECTION_REFUSED/, said);
    assert.equal(code, 1, said);
  }
});
