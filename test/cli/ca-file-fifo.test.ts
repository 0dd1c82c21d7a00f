// A ca-file that is a FIFO (or any file that is not a regular one) is refused as
// CA_FILE_UNREADABLE, from what it is, before a byte is read: it was read in line, so a FIFO
// nobody writes to blocked the process, deaf to Ctrl-C and SIGTERM. The CLI as a process: a hang
// here would have held the test's own process.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, cleanEnv } from '../helpers/cli.ts';

test('api --ca-file naming a FIFO or a directory is CA_FILE_UNREADABLE saying what it is, never blocked on it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-ca-fifo-'));
  const fifo = join(dir, 'ca.pem');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo');
  const ended = new AbortController();
  t.after(() => ended.abort());
  for (const [file, kind] of [
    [fifo, 'a FIFO'],
    [dir, 'a directory'],
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
    assert.match(out, new RegExp(`cannot read the CA file .*: it is not a file \\(${kind}\\)`), said);
    assert.match(out, /code: CA_FILE_UNREADABLE/, said);
  }
});
