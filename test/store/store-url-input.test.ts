// A store URL that cannot name a store is invalid input (exit 2, STORE_REFUSED), said before
// anything is read or sent, never an internal error nor a store "not reachable": a file: URL
// without its // (which named the file system's root), a prefix whose %-escapes are not UTF-8, an
// S3 store with no region to sign for.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

test('a file: URL without //, a malformed %-escape, an S3 store with no region: exit 2, saying what to write', async () => {
  const home = mkdtempSync(join(tmpdir(), 'enginectl-no-aws-'));
  const cases: [string, RegExp][] = [
    [
      'file:enginectl-relstore-probe',
      /file:enginectl-relstore-probe is not a directory's file URL.*\n {2}hint: write it as file:\/\/\/ABSOLUTE\/PATH/,
    ],
    ['s3://my-bucket/a%E0b', /s3:\/\/my-bucket\/a%E0b: the prefix is not a %-escaped UTF-8 path/],
    ['s3://my-bucket/runs', /s3:\/\/my-bucket\/runs: no region to sign for.*\n {2}hint: .*\?region=/],
  ];
  for (const [url, says] of cases) {
    const r = await runCli(['runs', '--store', url], { env: { HOME: home, AWS_CONFIG_FILE: join(home, 'none') } });
    assert.equal(r.code, 2, `${url}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, says, r.stderr);
    assert.doesNotMatch(r.stderr, /internal error/);
  }
  assert.ok(!existsSync('/enginectl-relstore-probe'), 'nothing written at the root');
});

test('a directory store that is not there, read by runs, runs --parked, lease status or release and report --merge --store: exit 2, naming it (a mistyped path is not a store with no run), and nothing created', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-missing-store-'));
  const missing = join(dir, 'runz');
  for (const args of [
    ['runs', '--store', `file://${missing}`],
    ['runs', '--parked', '--store', missing],
    ['lease', 'status', 'prod-fleet', '--store', `file://${missing}`],
    ['lease', 'release', 'prod-fleet', '--reason', 'gone', '--store', `file://${missing}`],
    ['report', '--merge', '--store', `file://${missing}`, '--run', '20261205T083402Z-c3b5db567dd8'],
  ]) {
    const r = await runCli(args, { env: {} });
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(
      r.stderr,
      new RegExp(`^enginectl: file://${missing}: no such directory.*\\n {2}hint: give the directory the runs wrote to`),
    );
    assert.doesNotMatch(r.stdout, /no run|never taken|already free/);
    assert.ok(!existsSync(missing), `${args.join(' ')} created the directory`);
  }
});
