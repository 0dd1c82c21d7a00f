// A resumed run's timeline places each bar by the instance's start within this run: an instance
// done in an earlier run (carried from the journal, nothing sent) started before this run began, and
// drawing it at the timeline's start, as long as it took then, told it as run now. It has no bar; its
// line says it was done in an earlier run.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

test('the HTML timeline of a resumed run draws no bar for an instance done in an earlier run', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-timeline-earlier-'));
  const file = join(dir, 'two.yml');
  writeFileSync(
    file,
    `version: 1
name: Two steps
steps:
  - name: First
    uses: transaction-log/clear
  - name: Second
    uses: monitoring/engines
`,
  );
  const journal = join(dir, 'run.journal');
  const failed = await runCli([
    'run',
    file,
    '--emulator',
    '--journal',
    journal,
    '--fault',
    'GET /api/monitoring/* status=403',
  ]);
  assert.equal(failed.code, 1, failed.stdout + failed.stderr);
  const resumed = await runCli(['run', file, '--emulator', '--resume', journal, '--html', join(dir, 'r.html')]);
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  const rows = [...readFileSync(join(dir, 'r.html'), 'utf8').matchAll(/<div class="row">(.*?)<\/div><\/div>\n/g)].map(
    (m) => m[1]!,
  );
  const first = rows.find((r) => r.includes('title="First"'))!;
  const second = rows.find((r) => r.includes('title="Second"'))!;
  assert.doesNotMatch(first, /class="bar"/, `done in an earlier run, not drawn in this one: ${first}`);
  assert.match(first, /earlier run/);
  assert.match(second, /class="bar"/);
});

test("a resumed fleet's timeline by step draws no bar for a step every instance of which was done in an earlier run", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-timeline-earlier-fleet-'));
  const file = join(dir, 'fleet.yml');
  // Fifty sites, each its own server: the report's timeline is by step (a fleet's).
  const sites = Array.from({ length: 50 }, (_, i) => `s${String(i + 1).padStart(2, '0')}`);
  writeFileSync(
    file,
    `version: 1
name: Fleet steps
vars:
  sites: [${sites.join(', ')}]
servers:
${sites.map((s) => `  ${s}: { url: "https://${s}.example" }`).join('\n')}
steps:
  - name: Clear \${{ matrix.site }}
    uses: transaction-log/clear
    matrix: { site: "\${{ vars.sites }}" }
    server: \${{ matrix.site }}
  - name: Engines of \${{ matrix.site }}
    uses: monitoring/engines
    matrix: { site: "\${{ vars.sites }}" }
    server: \${{ matrix.site }}
`,
  );
  const journal = join(dir, 'run.journal');
  const failed = await runCli([
    'run',
    file,
    '--emulator',
    '--journal',
    journal,
    '--fault',
    'GET /api/monitoring/* status=403',
  ]);
  assert.equal(failed.code, 1, failed.stdout + failed.stderr);
  const resumed = await runCli(['run', file, '--emulator', '--resume', journal, '--html', join(dir, 'r.html')]);
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  const rows = [...readFileSync(join(dir, 'r.html'), 'utf8').matchAll(/<div class="row">(.*?)<\/div><\/div>\n/g)].map(
    (m) => m[1]!,
  );
  const first = rows.find((r) => r.includes('title="1 transaction-log/clear (50 runs)"'))!;
  const second = rows.find((r) => r.includes('title="2 monitoring/engines (50 runs)"'))!;
  assert.ok(first && second, rows.join('\n'));
  assert.doesNotMatch(first, /class="bar"/, `done in an earlier run, not drawn in this one: ${first}`);
  assert.match(second, /class="bar"/);
});
