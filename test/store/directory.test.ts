// The directory store on a real directory with real processes: 1,000 rounds of 2-8 processes
// creating the same key at once have exactly one winner each, whose body the key holds.
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { DirectoryStore } from '../../src/store/directory.ts';

const RACER = new URL('../helpers/store-racer.ts', import.meta.url);

type Answer = { key: string; created?: boolean; error?: string };

async function racer(
  url: string,
): Promise<{ child: ChildProcess; create: (key: string, body: string) => Promise<Answer> }> {
  const child = fork(RACER, [url], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map<string, (a: Answer) => void>();
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`a racer exited with ${code} before it was ready`)));
    child.once('message', () => resolve());
  });
  child.on('message', (a: Answer) => waiting.get(a.key)?.(a));
  return {
    child,
    create: (key, body) =>
      new Promise((resolve) => {
        waiting.set(key, resolve);
        child.send({ key, body });
      }),
  };
}

test('a directory: 1,000 rounds of 2-8 processes creating the same key at once: exactly one winner per round, and the key holds the winner body', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'store-races-'));
  const url = pathToFileURL(dir).href;
  const racers = await Promise.all(Array.from({ length: 8 }, () => racer(url)));
  t.after(() => racers.forEach((r) => r.child.kill()));
  const store = new DirectoryStore(url);
  const rounds = new Map<number, number>();
  for (let round = 0; round < 1000; round++) {
    const n = 2 + (round % 7);
    const key = `leases/fleet/${String(round).padStart(4, '0')}`;
    const bodies = racers.slice(0, n).map((_, i) => JSON.stringify({ round, racer: i }));
    // Each process is told at once; each links its own synced file to the key.
    const answers = await Promise.all(racers.slice(0, n).map((r, i) => r.create(key, bodies[i]!)));
    assert.deepEqual(
      answers.filter((a) => a.error),
      [],
      `round ${round}: no racer failed`,
    );
    const won = answers.flatMap((a, i) => (a.created ? [i] : []));
    assert.equal(won.length, 1, `round ${round} (${n} processes): winners ${JSON.stringify(won)}`);
    assert.equal(String(await store.get(key)), bodies[won[0]!], `round ${round}: the key holds the winner body`);
    rounds.set(n, (rounds.get(n) ?? 0) + 1);
  }
  assert.equal((await store.list('leases/fleet/')).length, 1000);
  assert.deepEqual(readdirSync(join(dir, '.tmp')), [], 'no temporary file is left behind');
  t.diagnostic(`rounds by number of processes: ${JSON.stringify(Object.fromEntries(rounds))}`);
});
