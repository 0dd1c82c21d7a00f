// A window's or freeze's matrix value no step gives its key is refused (a typo leaves a site outside
// its window) only where that is a mistake of this pipeline: a window an inventory shares names the
// whole fleet's sites, and a --var that narrows the sites narrows no window. Before, both of these
// valid pipelines were refused ("apac" is no value of site; "us" is no value of site).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const env = { ENGINE_URL: 'https://erp.example.com', ENGINE_USERNAME: 'u', ENGINE_PASSWORD: 'p' };
const WINDOW = (sites: string) =>
  `    cron: '0 2 * * *'\n    duration: 4h\n    zone: UTC\n    matrix: { site: [${sites}] }\n`;

test('a window an included inventory shares may name sites this pipeline does not deploy', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-window-values-'));
  mkdirSync(join(dir, 'inventory'));
  writeFileSync(
    join(dir, 'inventory', 'sites.yml'),
    `windows:\n  nights:\n${WINDOW('eu, us, apac')
      .replace(/^/gm, '  ')
      .replace(/^ {2}$/gm, '')}`,
  );
  writeFileSync(
    join(dir, 'p.yml'),
    'version: 1\ninclude: [inventory/sites.yml]\nsteps:\n  - uses: transaction-log/clear\n    matrix: { site: [eu, us] }\n',
  );
  const r = await runCli(['validate', join(dir, 'p.yml')], { env });
  assert.equal(r.code, 0, r.stdout + r.stderr);
});

test('a window over the sites its file lists stays valid when --var narrows the sites run', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-window-values-'));
  writeFileSync(
    join(dir, 'p.yml'),
    `version: 1\nvars:\n  sites: [eu, us]\nwindows:\n  nights:\n${WINDOW('eu, us')}steps:\n  - uses: transaction-log/clear\n    matrix: { site: "\${{ vars.sites }}" }\n`,
  );
  const r = await runCli(['validate', join(dir, 'p.yml'), '--var', 'sites=[eu]'], { env });
  assert.equal(r.code, 0, r.stdout + r.stderr);
});
