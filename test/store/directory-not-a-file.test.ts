// A key of a directory store that is not a regular file (a FIFO planted there, a device) is
// refused as STORE_DAMAGED naming it, from what it is, before anything is read: a FIFO nobody
// writes to once blocked the read, in line, and the process with it (SIGTERM and SIGINT never
// acted on). The CLI as a process: a hang here would have held the test's own process.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, cleanEnv } from '../helpers/cli.ts';

const RUN = '20261204T000000Z-aaaaaaaaaaaa';

/** The CLI as a process, killed (SIGKILL) should it hang: after a minute, or when the test ends. */
function cli(args: string[], signal: AbortSignal) {
  const child = spawn(process.execPath, [CLI, ...args], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const hung = setTimeout(() => child.kill('SIGKILL'), 60_000);
  signal.addEventListener('abort', () => child.kill('SIGKILL'));
  child.on('close', () => clearTimeout(hung));
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  return new Promise<{ code: number | null; out: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, out })),
  );
}

test('a FIFO planted as a key of a directory store is STORE_DAMAGED naming it: runs, report --run, lease status end, never blocked on it', async (t) => {
  const store = mkdtempSync(join(tmpdir(), 'enginectl-fifo-store-'));
  mkdirSync(join(store, 'runs', RUN, 'journal'), { recursive: true });
  mkdirSync(join(store, 'leases', 'prod'), { recursive: true });
  for (const key of [`runs/${RUN}/journal/00000001`, 'leases/prod/00000001'])
    assert.equal(spawnSync('mkfifo', [join(store, key)]).status, 0, 'mkfifo');
  const ended = new AbortController();
  t.after(() => ended.abort());
  const url = `file://${store}`;
  for (const [args, key] of [
    [['runs', '--store', url], `runs/${RUN}/journal/00000001`],
    [['report', '--store', url, '--run', RUN], `runs/${RUN}/journal/00000001`],
    [['lease', 'status', 'prod', '--store', url], 'leases/prod/00000001'],
  ] as [string[], string][]) {
    const r = await cli(args, ended.signal);
    const said = `${args.join(' ')}: exit ${r.code}\n${r.out}`;
    assert.equal(r.code, 1, said);
    assert.match(r.out, new RegExp(`${key} is not a file \\(a FIFO\\)`), said);
    assert.match(r.out, /code: STORE_DAMAGED/, said);
  }
});
