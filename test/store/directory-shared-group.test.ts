// A directory store is "a share every runner mounts": two runner accounts of one group (a setgid,
// group-writable directory, umask 002) use it in turn. A key there is created 0660 (less the
// umask), so the other account reads it; with umask 077 it stays the writer's own; in a directory
// its group cannot write it is 0600 whatever the umask, and no key is ever other users' to read.
// The directories enginectl makes there (probes/, leases/, runs/..., a wave's log/, .tmp/) are the
// group's to write too, whatever the umask of the account that made them (022: mkdir alone made
// them 2755, and the second account's first key failed); one that is not (made by an older
// enginectl) is named in the hint. The CLI as processes of two users (run as root; skipped otherwise).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import * as fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { DirectoryStore } from '../../src/store/directory.ts';
import { CLI, cleanEnv, nodeFor } from '../helpers/cli.ts';
import { shardFleet } from '../shard/helpers.ts';

const GROUP = 2000;
// The token the emulator's prod target takes.
const TOKEN = 'prod-token';
const root = process.getuid?.() === 0;

/** The CLI as `uid` of GROUP with `umask` (and `env`: the prod target's token by default). */
function as(uid: number, umask: string, args: string[], env: Record<string, string> = { PROD_TOKEN: TOKEN }) {
  const node = nodeFor(uid);
  const child = spawn('/bin/sh', ['-c', `umask ${umask}; exec "$0" "$@"`, node, CLI, ...args], {
    uid,
    gid: GROUP,
    env: cleanEnv({ HOME: '/tmp', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  return new Promise<{ code: number | null; out: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, out })),
  );
}

test(
  'a directory store shared by two accounts of one group (setgid, umask 002): what one runner wrote, the other reads and goes on writing',
  { skip: !root && 'needs root (two users)' },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-shared-'));
    chmodSync(dir, 0o755);
    const file = join(dir, 'p.yml');
    // A step that sends a secret (the target's token): what is readable by the group holds none of it.
    writeFileSync(
      file,
      'version: 1\ntargets:\n  prod: { server: prod-db.example.com, database: PROD, token: "${{ secrets.PROD_TOKEN }}" }\nsteps:\n  - uses: transaction-log/clear\n  - uses: update/vfs\n    with: { target: prod, files: [1001] }\n',
    );
    chmodSync(file, 0o644);
    const make = mkdtempSync(join(dir, 'store-'));
    chownSync(make, 0, GROUP);
    chmodSync(make, 0o2775);
    const url = `file://${make}`;
    const first = await as(1001, '002', ['run', file, '--emulator', '--store', url]);
    assert.equal(first.code, 0, first.out);
    const [run] = readdirSync(join(make, 'runs'));
    const segment = join(make, 'runs', run!, 'journal', '00000001');
    assert.equal(statSync(segment).mode & 0o777, 0o660, "created 0660: the group's, never other users'");
    for (const args of [
      ['report', '--store', url, '--run', run!],
      ['runs', '--store', url],
      ['run', file, '--emulator', '--store', url],
    ]) {
      const r = await as(1002, '002', args);
      assert.equal(r.code, 0, `${args.join(' ')} as the second account: ${r.out}`);
    }
    const files = readdirSync(make, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    assert.ok(files.length > 3);
    for (const e of files) {
      const text = readFileSync(join(e.parentPath, e.name), 'utf8');
      for (const form of [TOKEN, Buffer.from(TOKEN).toString('base64')])
        assert.ok(!text.includes(form), `${join(e.parentPath, e.name)} holds the token`);
    }
    // A runner that wants its keys its own says so with its umask.
    const before = new Set(readdirSync(join(make, 'runs')));
    const own = await as(1001, '077', ['run', file, '--emulator', '--store', url]);
    assert.equal(own.code, 0, own.out);
    // Its run by the list, not the name: two runs in one second sort by their random part.
    const newest = readdirSync(join(make, 'runs')).find((r) => !before.has(r))!;
    assert.equal(statSync(join(make, 'runs', newest, 'journal', '00000001')).mode & 0o777, 0o600);
    // A directory of one account (its group cannot write it): its keys are that account's alone, even under umask 000.
    const single = mkdtempSync(join(dir, 'single-'));
    chownSync(single, 1001, GROUP);
    chmodSync(single, 0o755);
    const alone = await as(1001, '000', ['run', file, '--emulator', '--store', `file://${single}`]);
    assert.equal(alone.code, 0, alone.out);
    const [only] = readdirSync(join(single, 'runs'));
    assert.equal(statSync(join(single, 'runs', only!, 'journal', '00000001')).mode & 0o777, 0o600);
  },
);

/** A pipeline every account reads, and a store directory of GROUP (setgid, group-writable), in a directory others may enter. */
function sharedStore() {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-shared-'));
  chmodSync(dir, 0o755);
  const file = join(dir, 'p.yml');
  writeFileSync(file, 'version: 1\nsteps:\n  - uses: transaction-log/clear\n');
  chmodSync(file, 0o644);
  const store = join(dir, 'store');
  mkdirSync(store);
  chownSync(store, 0, GROUP);
  chmodSync(store, 0o2775);
  return { file, store, url: `file://${store}` };
}

/** Every directory under `store`, with its mode (permissions, setgid), each the group's to write. */
function assertGroupWritable(store: string) {
  const dirs = readdirSync(store, { recursive: true, withFileTypes: true }).filter((e) => e.isDirectory());
  assert.ok(dirs.length > 3, 'directories made');
  for (const e of dirs) {
    const path = join(e.parentPath, e.name);
    const { mode, gid } = statSync(path);
    assert.equal((mode & 0o7777).toString(8), '2770', `${path}: the group's to write, setgid, never other users'`);
    assert.equal(gid, GROUP, path);
  }
}

test(
  "a directory store shared by two accounts of one group, each with umask 022: the directories the first made are the group's to write, and the second runs",
  { skip: !root && 'needs root (two users)' },
  async () => {
    const { file, store, url } = sharedStore();
    for (const uid of [1001, 1002, 1001]) {
      const r = await as(uid, '022', ['run', file, '--emulator', '--store', url]);
      assert.equal(r.code, 0, `run as ${uid}: ${r.out}`);
    }
    assert.equal(readdirSync(join(store, 'runs')).length, 3);
    assertGroupWritable(store);
    const r = await as(1002, '022', ['runs', '--store', url]);
    assert.equal(r.code, 0, r.out);
  },
);

test(
  'a sharded run whose plan and two workers are three accounts of one group, each with umask 022: both workers run their sites, the merged report names every site',
  { skip: !root && 'needs root (two users)' },
  async (t) => {
    const f = await shardFleet(t, 4, '  over: site\n  waves: [[site-0001], rest]');
    chmodSync(f.dir, 0o755);
    chmodSync(f.file, 0o644);
    chownSync(f.store, 0, GROUP);
    chmodSync(f.store, 0o2775);
    const planned = await as(1003, '022', ['shard', f.file, '--store', f.storeUrl, '--shards', '2'], f.env);
    assert.equal(planned.code, 0, planned.out);
    const run = /^run (\S+) in /m.exec(planned.out)![1]!;
    const [a, b] = await Promise.all(
      (
        [
          [1001, '1/2'],
          [1002, '2/2'],
        ] as const
      ).map(([uid, shard]) =>
        as(uid, '022', ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', shard], f.env),
      ),
    );
    assert.equal(a!.code, 0, `worker 1/2 as 1001: ${a!.out}`);
    assert.equal(b!.code, 0, `worker 2/2 as 1002: ${b!.out}`);
    const counts = f.applied('/update/system');
    assert.deepEqual(Object.keys(counts).sort(), f.names);
    assert.ok(
      Object.values(counts).every((c) => c === 1),
      JSON.stringify(counts),
    );
    assertGroupWritable(f.store);
    const merged = await as(1002, '022', ['report', '--merge', '--store', f.storeUrl, '--run', run], f.env);
    assert.equal(merged.code, 0, merged.out);
  },
);

test(
  "a directory of the store another account made without the group's write (an older enginectl, umask 022): the hint names it, not the store",
  { skip: !root && 'needs root (two users)' },
  async () => {
    const { file, store, url } = sharedStore();
    // What an older enginectl left: .tmp/ made by 1001 with mkdir alone, under umask 022.
    const tmp = join(store, '.tmp');
    mkdirSync(tmp);
    chownSync(tmp, 1001, GROUP);
    chmodSync(tmp, 0o2755);
    const r = await as(1002, '022', ['run', file, '--emulator', '--store', url]);
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /cannot write probes\/\S+ \(EACCES\)/);
    assert.match(r.out, new RegExp(`hint: this runner may not write in ${tmp.replace(/[.]/g, '\\.')}( |:)`));
    assert.match(r.out, /chmod g\+w/);
  },
);

test("a write in a directory another account of the group is making, refused between its mkdir and its chmod (the group's write not given yet), is tried again: the key is written", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-shared-race-'));
  chmodSync(dir, 0o2775);
  let refusals = 0;
  // A wave's log another worker is making: the first link into it once it is there is refused, as it is before that worker's chmod.
  const seam = {
    ...fs,
    link: ((from: string, to: string, done: fs.NoParamCallback) =>
      to.includes('/log/') && fs.existsSync(dirname(to)) && refusals++ === 0
        ? done(
            Object.assign(new Error(`EACCES: permission denied, link '${from}' -> '${to}'`), {
              code: 'EACCES',
              dest: to,
            }),
          )
        : fs.link(from, to, done)) as typeof fs.link,
  } as typeof fs;
  const store = new DirectoryStore(pathToFileURL(dir).href, seam);
  assert.equal(await store.create('shards/R/waves/1/log/00000001', Buffer.from('{}')), true);
  assert.equal(refusals, 2, 'refused once, then linked');
  assert.equal(readFileSync(join(dir, 'shards/R/waves/1/log/00000001'), 'utf8'), '{}');
  // Made by this account under the test's umask, each the group's to write, setgid as the store's directory is.
  for (const d of ['shards', 'shards/R', 'shards/R/waves', 'shards/R/waves/1', 'shards/R/waves/1/log', '.tmp'])
    assert.equal((statSync(join(dir, d)).mode & 0o7777).toString(8), '2770', d);
});
