// What enginectl concluded itself (a write maybe applied twice, after a retry of an attempt in doubt)
// is said in the summary as enginectl's, never under the server's errors and warnings, whatever the
// step's type: an update's result carries the server's own warnings, a create's none.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = `version: 1
name: Twice
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: record
    name: Record
    uses: classes/create
    retry: { attempts: 2, delay: 1ms, in-doubt: retry }
    with: { class: 30, fields: { iname: REL-1 } }
  - id: vfs
    name: VFS update prod
    uses: update/vfs
    retry: { attempts: 2, delay: 1ms, in-doubt: retry }
    with: { target: prod, files: [1001] }
`;

/** The summary's section under `heading`, up to the next heading. */
const section = (md: string, heading: string) => {
  const at = md.indexOf(`### ${heading}\n`);
  if (at < 0) return undefined;
  const next = md.indexOf('\n### ', at + 4);
  return md.slice(at, next < 0 ? undefined : next);
};

test(`"maybe applied twice" after a gateway's 504 and a retry is enginectl's warning in the summary, not the server's, for a create and an update alike`, async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-own-warnings-'));
  const file = join(dir, 'twice.yml');
  writeFileSync(file, PIPELINE);
  for (const path of ['/api/classes/v1/classes/30/entities', '/api/devops/v1/update/vfs'])
    emulator.faults.add({ method: 'POST', path, gateway: 504, times: 1 });
  const md = join(dir, 'summary.md');
  const run = await runCli(['run', file, '--summary', md], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' },
  });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal((run.stdout.match(/maybe applied twice/g) ?? []).length, 2, run.stdout);
  const summary = readFileSync(md, 'utf8');
  const server = section(summary, 'Errors and warnings reported by the server') ?? '';
  assert.doesNotMatch(server, /maybe applied twice/, `the server said nothing of the kind:\n${summary}`);
  const own = section(summary, 'Warnings enginectl raised') ?? '';
  assert.match(
    own,
    /^- ⚠️ \*\*Record\*\*: maybe applied twice: POST \/api\/classes\/v1\/classes\/30\/entities was applied after an earlier attempt/m,
    summary,
  );
  assert.match(
    own,
    /^- ⚠️ \*\*VFS update prod\*\*: maybe applied twice: POST \/api\/devops\/v1\/update\/vfs was applied after an earlier attempt/m,
    `an update's own warning is said too, beside its result's (none here):\n${summary}`,
  );
});
