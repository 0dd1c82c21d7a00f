// A directory store is "a share every runner mounts": two runner accounts of one group (a setgid,
// group-writable directory, umask 002) use it in turn. A key there is created 0660 (less the
// umask), so the other account reads it; with umask 077 it stays the writer's own; in a directory
// its group cannot write it is 0600 whatever the umask, and no key is ever other users' to read.
// The CLI as processes of two users (run as root; skipped otherwise).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, cleanEnv, nodeFor } from '../helpers/cli.ts';

const GROUP = 2000;
// The token the emulator's prod target takes.
const TOKEN = 'prod-token';
const root = process.getuid?.() === 0;

/** The CLI as `uid` of GROUP with `umask`. */
function as(uid: number, umask: string, args: string[]) {
  const node = nodeFor(uid);
  const child = spawn('/bin/sh', ['-c', `umask ${umask}; exec "$0" "$@"`, node, CLI, ...args], {
    uid,
    gid: GROUP,
    env: cleanEnv({ HOME: '/tmp', PROD_TOKEN: TOKEN }),
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
