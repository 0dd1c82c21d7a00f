// An empty or blank store URL (--store "", --store " ", ENGINECTL_STORE set but empty, as a CI
// variable that was never defined leaves it) names no store: it is refused (STORE_REFUSED, exit 2)
// by every command that reads a store URL, never read as the directory the command runs in (where
// two runners with the same lease: each held a lease of its own and both deployed).
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { runCli } from '../helpers/cli.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';

const RUN = '20261204T000000Z-aaaaaaaaaaaa';
const PIPELINE =
  'version: 1\nname: empty-store\nlease: { name: prod, ttl: 30s }\nsteps:\n  - uses: transaction-log/clear\n';
const FLEET = `version: 1
name: fleet
vars: { sites: [s1, s2] }
rollout: { over: site, waves: [rest] }
steps:
  - uses: transaction-log/clear
    matrix: { site: "\${{ vars.sites }}" }
`;

test('an empty or blank store URL is refused by run, run --shard, shard, report, report --merge, verify, decide, lease and runs (STORE_REFUSED, exit 2), and nothing is written where the command runs', async () => {
  // The commands run in a directory of their own: an empty URL read as "here" would fill it.
  const here = mkdtempSync(join(tmpdir(), 'enginectl-empty-store-'));
  const file = join(mkdtempSync(join(tmpdir(), 'enginectl-empty-store-p-')), 'p.yml');
  writeFileSync(file, PIPELINE);
  const fleet = join(dirname(file), 'fleet.yml');
  writeFileSync(fleet, FLEET);
  process.chdir(here);
  const commands = [
    ['run', file, '--emulator'],
    ['run', fleet, '--run', RUN, '--shard', '1/2'],
    ['shard', fleet, '--shards', '2'],
    ['report', '--run', RUN],
    ['report', '--merge', '--run', RUN],
    ['verify', '--run', RUN],
    ['decide', '--run', RUN, '--continue'],
    ['lease', 'status', 'prod'],
    ['runs'],
  ];
  const ways: [string, string[], Record<string, string>][] = [
    ['--store ""', ['--store', ''], {}],
    ['--store " "', ['--store', ' '], {}],
    ['ENGINECTL_STORE=', [], { ENGINECTL_STORE: '' }],
  ];
  for (const args of commands)
    for (const [way, more, env] of ways) {
      const r = await runCli([...args, ...more], { env: { ...env, ENGINE_URL: 'http://127.0.0.1:9' } });
      const said = `${args.join(' ')} ${way}: exit ${r.code}\n${r.stdout}${r.stderr}`;
      assert.equal(r.code, 2, said);
      assert.match(
        r.stderr,
        /empty store URL names no store.*\n {2}hint: give .*s3:\/\/BUCKET\/PREFIX or file:\/\/\/PATH/,
        said,
      );
      assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, said);
      assert.deepEqual(readdirSync(here), [], `${said}\nwritten where the command runs`);
    }
});

test('the action: ENGINECTL_STORE set but empty is refused (STORE_REFUSED), nothing written in the workspace', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'enginectl-empty-store-ws-'));
  const run = await runActionInProcess(actionDef('enginectl'), {
    workspace,
    files: { 'release.yml': PIPELINE },
    inputs: { pipeline: 'release.yml' },
    env: { ENGINECTL_STORE: '', ENGINE_URL: 'http://127.0.0.1:9', ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.notEqual(run.code, 0, JSON.stringify(run.failed));
  assert.match(String(run.failed), /ENGINECTL_STORE is empty: an empty store URL names no store/);
  assert.deepEqual(readdirSync(workspace).sort(), ['release.yml']);
});
