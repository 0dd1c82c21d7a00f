// A site's name becomes a key of the run store (shards/RUN/sites/…): one key per name, whatever
// its characters (中 and Ӣd once shared one), and of bounded length (a 260-character name broke
// the run: no file system takes a name that long).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { siteKey } from '../../src/shard/manifest.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const LONG = `site-${'x'.repeat(255)}`;

test('sites whose names once shared a key, and a 260-character one: each its own record, the merged report names all', async (t) => {
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-site-names-'));
  const store = join(dir, 'store');
  mkdirSync(store);
  const file = join(dir, 'fleet.yml');
  writeFileSync(
    file,
    `version: 1
name: Named sites
vars:
  sites: ["中", "Ӣd", "${LONG}"]
rollout:
  over: site
  waves: [rest]
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
  assert.equal(worker.code, 0, worker.stdout + worker.stderr);
  const json = join(dir, 'merged.json');
  const merged = await runCli(['report', '--merge', '--store', storeUrl, '--run', run, '--report-json', json], { env });
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
  assert.equal(new Set(['中', 'Ӣd', LONG].map(siteKey)).size, 3, 'one key per name');
  assert.ok(siteKey(LONG).length <= 200, `a bounded key: ${siteKey(LONG).length}`);
});
