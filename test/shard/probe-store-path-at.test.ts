// A directory store whose path holds an @ (a home directory of an SSSD or AD-joined runner,
// /home/jo@corp.com) is taken by every command; but `shard` prints its workers' command lines
// with the store as nameOfStore hides a login (everything up to the last @), `file:///***@corp.com/store`,
// a store that is not there: each worker run from them stops (exit 69, "run the same index
// again"), and the hints that name the store (decide --store ..., report --store ...) cannot be
// run either. A file: URL holds no login to hide.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

test("shard --format plain under a directory whose name holds an @: the workers' command lines name the store that was given", async () => {
  const home = join(mkdtempSync(join(tmpdir(), 'enginectl-probe-at-')), 'jo@corp.com');
  const store = join(home, 'store');
  mkdirSync(store, { recursive: true });
  const file = join(home, 'fleet.yml');
  writeFileSync(
    file,
    `version: 1
name: Fleet
servers:
  main: { url: "http://127.0.0.1:9", username: admin, password: admin }
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
rollout:
  over: site
  waves: [[a], rest]
steps:
  - name: "Update \${{ matrix.site }}"
    uses: update/vfs
    matrix: { site: [a, b, c] }
    with: { target: prod, files: [1001], message: "x" }
`,
  );
  const planned = await runCli(['shard', file, '--store', `file://${store}`, '--shards', '2', '--format', 'plain']);
  assert.equal(planned.code, 0, planned.stdout + planned.stderr);
  const lines = planned.stdout.trim().split('\n');
  assert.equal(lines.length, 2, planned.stdout);
  for (const line of lines) {
    const given = /--store '?([^' ]+)'? --run (\S+)/.exec(line);
    assert.ok(given, line);
    // The store a worker reads is the one the run was planned in: listing it shows that run.
    const runs = await runCli(['runs', '--store', given[1]!]);
    assert.equal(runs.code, 0, `${line}\n${runs.stdout}${runs.stderr}`);
    assert.match(runs.stdout, new RegExp(`^${given[2]}  `, 'm'), `${line}\n${runs.stdout}${runs.stderr}`);
  }
});
