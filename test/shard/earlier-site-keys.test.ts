// A sharded run whose site records an earlier enginectl wrote (one job of the rollout on it):
// before 4345893, a site's key escaped each character outside [A-Za-z0-9._-] as =XX of its code
// point (zürich: s-z=fcrich), not of its UTF-8 bytes (s-z=c3=bcrich). The merged report reads a
// site's record under the key an earlier enginectl gave it too, when it names that site: a
// rollout parked on its bake after such a site ended is said to wait for the bake, not to have
// stopped in the wave (failure, "run the shards whose sites have not ended again").
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { siteKey } from '../../src/shard/manifest.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

test("the merged report of a sharded run reads a site's record an earlier enginectl wrote under its earlier key: parked on its bake, not stopped", async (t) => {
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-earlier-site-keys-'));
  const store = join(dir, 'store');
  mkdirSync(store);
  const file = join(dir, 'fleet.yml');
  writeFileSync(
    file,
    `version: 1
name: Named sites
vars:
  sites: ["zürich", "oslo", "bergen"]
rollout:
  over: site
  waves: [[zürich, oslo], rest]
  analysis: { bake: 1h }
steps:
  - id: clear
    name: "Clear at \${{ matrix.site }}"
    uses: transaction-log/clear
    matrix: { site: "\${{ vars.sites }}" }
`,
  );
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const storeUrl = `file://${store}`;
  const planned = await runCli(['shard', file, '--store', storeUrl, '--shards', '1'], { env });
  assert.equal(planned.code, 0, planned.stdout + planned.stderr);
  const run = /^run (\S+) in /m.exec(planned.stderr)![1]!;
  const worker = await runCli(['run', file, '--store', storeUrl, '--run', run, '--shard', '1/1'], { env });
  assert.equal(worker.code, 75, worker.stdout + worker.stderr);
  // zürich's record as an earlier enginectl wrote it: under the key of its code points.
  const sites = join(store, 'shards', run, 'sites');
  assert.equal(siteKey('zürich'), 's-z=c3=bcrich');
  assert.match(readFileSync(join(sites, 's-z=c3=bcrich'), 'utf8'), /"site":"zürich"/);
  renameSync(join(sites, 's-z=c3=bcrich'), join(sites, 's-z=fcrich'));
  const merged = await runCli(['report', '--merge', '--store', storeUrl, '--run', run], { env });
  const said = merged.stdout + merged.stderr;
  assert.match(said, /the rollout waits at wave 1: the 1h bake after wave 1/, said);
  assert.doesNotMatch(said, /stopped in wave 1/, said);
  assert.equal(merged.code, 0, said);
});
