// What a killed writer leaves in a directory store: its temporary file in `.tmp/` (written and
// synced, never released), or, killed after its key was created, a second name of that key's file.
// Real processes killed with SIGKILL at those points; the files aged with utimes as a day passing.
// A writer's first write removes the abandoned ones (a day old); a younger one may be a live
// writer's and stays; a key stays whole.
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { DirectoryStore } from '../../src/store/directory.ts';

const WRITER = new URL('../helpers/store-killed-writer.ts', import.meta.url);
const HOUR = 60 * 60 * 1000;

/** A writer of `url` killed after preparing `key` (and creating it, `linked`); resolves when it is dead. */
function killedWriter(url: string, key: string, mode: 'prepared' | 'linked'): Promise<void> {
  const child = fork(WRITER, [url, key, mode], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  return new Promise((resolve, reject) =>
    child.once('exit', (code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`the writer exited with ${code} before it was killed`)),
    ),
  );
}

const temporaries = (dir: string) => readdirSync(join(dir, '.tmp')).sort();
/** A file's inode: whether a key is still the file it was. */
const inode = (path: string) => statSync(path).ino;

test("a killed writer's temporary files a day old are removed by the next writer's first write; a younger one, and every key, stay", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-leftovers-'));
  const url = pathToFileURL(dir).href;
  await killedWriter(url, 'waves/1/log/00000001', 'prepared');
  await killedWriter(url, 'sites/site-0001/journal/00000001', 'linked');
  const [first, second] = temporaries(dir).map((name) => join(dir, '.tmp', name));
  assert.ok(first && second, 'each killed writer left its temporary file');
  const linked = inode(join(dir, 'sites/site-0001/journal/00000001'));
  const old = new Date(Date.now() - 25 * HOUR);
  const young = new Date(Date.now() - HOUR);
  for (const path of [first, second]) utimesSync(path, old, old);
  await killedWriter(url, 'waves/1/log/00000002', 'prepared');
  const live = temporaries(dir)
    .map((name) => join(dir, '.tmp', name))
    .find((path) => path !== first && path !== second)!;
  utimesSync(live, young, young);

  const store = new DirectoryStore(url);
  assert.equal(await store.create('waves/1/log/00000003', Buffer.from('a later writer')), true);
  assert.deepEqual(
    temporaries(dir).map((name) => join(dir, '.tmp', name)),
    [live],
    'the day-old files gone; the hour-old one kept',
  );
  assert.equal(String(await store.get('sites/site-0001/journal/00000001')), 'body of sites/site-0001/journal/00000001');
  assert.equal(inode(join(dir, 'sites/site-0001/journal/00000001')), linked, 'the key is the same file');
  assert.equal(await store.get('waves/1/log/00000001'), undefined, 'never created');
  assert.equal(String(await store.get('waves/1/log/00000003')), 'a later writer');
  assert.deepEqual(await store.list(''), ['sites/site-0001/journal/00000001', 'waves/1/log/00000003']);
});

test('a store only read (a report) removes nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-leftovers-'));
  const url = pathToFileURL(dir).href;
  await killedWriter(url, 'waves/1/log/00000001', 'prepared');
  const old = new Date(Date.now() - 25 * HOUR);
  for (const name of temporaries(dir)) utimesSync(join(dir, '.tmp', name), old, old);
  const store = new DirectoryStore(url);
  assert.equal(await store.get('waves/1/log/00000001'), undefined);
  assert.deepEqual(await store.list(''), []);
  assert.equal(temporaries(dir).length, 1);
});
