// A 404 that is not the API's (a proxy's or an ingress's HTML page, answered to verify's read) is no
// proof that a delete was applied: the API's own 404 is its JSON error, and "applied" needs proof as
// "not applied" does. Each case leaves a delete in doubt without the server acting on it (the
// connection reset before the server read it), then reads it back through a proxy that answers 404
// with its own page: verify must not call it applied, and `--in-doubt verify` must not go on past it
// with the entity (or the license) still there.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PAGE = '<html><head><title>404 Not Found</title></head><body><center>nginx</center></body></html>';

const CASES = [
  {
    uses: 'classes/delete',
    with: '{ class: 12, id: 2002 }',
    path: '/api/classes/v1/classes/12/entities/2002',
    there: (s: { entities: { ikey: unknown }[] }) => s.entities.some((e) => e.ikey === 2002),
  },
  {
    uses: 'licensing/remove',
    with: '{ key: 2 }',
    path: '/api/licensing/v1/licenses/2',
    there: (s: { licenses: { productKey: number }[] }) => s.licenses.some((l) => l.productKey === 2),
  },
] as const;

for (const c of CASES) {
  test(`verify of a ${c.uses} never calls it applied on a proxy's 404 page: --in-doubt verify does not go on past a delete the server never made`, async (t) => {
    const { url, emulator } = await startEmulator(t);
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-probe-404-'));
    const file = join(dir, 'release.yml');
    writeFileSync(file, `version: 1\nname: Probe\nsteps:\n  - id: w\n    uses: ${c.uses}\n    with: ${c.with}\n`);
    const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
    const journal = join(dir, 'run.journal.jsonl');
    // The connection is dropped before the server reads the request: nothing was deleted.
    emulator.faults.add({ method: 'DELETE', path: c.path, reset: 'before', times: 1 });
    const run = await runCli(['run', file, '--journal', journal], { env });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /in doubt: DELETE /);
    assert.ok(c.there(emulator.state as never), 'the server never deleted it');

    // The read back meets a proxy's own 404 page, not the API's JSON error.
    emulator.faults.add({ method: 'GET', path: c.path, status: 404, body: PAGE, contentType: 'text/html' });
    const verified = await runCli(['verify', journal], { env });
    assert.doesNotMatch(verified.stdout, /^applied /m, verified.stdout);
    assert.match(verified.stdout, /^cannot-tell /m, verified.stdout);
    assert.equal(verified.code, 1, verified.stdout + verified.stderr);

    const resumed = await runCli(['run', file, '--resume', journal, '--in-doubt', 'verify'], { env });
    assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
    assert.match(resumed.stderr, /cannot-tell/);
    assert.ok(c.there(emulator.state as never), 'still there: no report may say it was deleted');
  });
}
