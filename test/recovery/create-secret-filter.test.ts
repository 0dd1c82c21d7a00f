// verify of a classes/create counts the entities matching its written fields against the count
// just before the call. The journal records the body masked, so verify leaves out a field written
// with a secret; the snapshot before the write must count by the same fields. Before, it counted
// by the body as sent, the secret among the filters (sent to the server in a GET's query string):
// an entity already there with the readable fields, but another password, was not counted before
// and was counted after, so a create never applied read applied, and verify-and-retry never sent it.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const NEW_PW = 'N3w-Passw0rd-abc';
const ENTITIES = '/api/classes/v1/classes/12/entities';

test('verify of a create writing a secret counts by the same fields before the call and after: one there already with the readable fields, its POST never read, is not applied', async (t) => {
  const clock = simulatedClock();
  const { url, emulator } = await startEmulator(t, { now: clock.now });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-create-secret-'));
  const file = join(dir, 'create.yml');
  writeFileSync(
    file,
    `version: 1
name: Create
steps:
  - uses: classes/create
    longest: 1m
    with: { class: 12, fields: { iname: asmith, ifullname: Anna Smith, ipassword: "\${{ secrets.NEW_PW }}" } }
`,
  );
  const journal = join(dir, 'run.journal.jsonl');
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', NEW_PW };
  const cli = (...args: string[]) => runCli(args, { env, clock });
  const named = () => emulator.state.entities.filter((e) => e.iname === 'asmith').length;
  assert.equal(named(), 1, 'one there already, with another password');
  emulator.faults.add({ method: 'POST', path: ENTITIES, reset: 'before', times: 1 });
  const run = await cli('run', file, '--journal', journal);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  emulator.faults.clear();
  assert.equal(named(), 1, 'the server never read it');

  await clock.sleep(5 * 60_000, new AbortController().signal);
  const verified = await cli('verify', journal);
  assert.doesNotMatch(verified.stdout, /^applied/m, 'the create was never applied');
  assert.match(
    verified.stdout,
    /^not-applied +"Create an entity" .*: 1 entity with iname=asmith, ifullname=Anna Smith, as just before the call/m,
  );
  const retried = await cli('run', file, '--resume', journal, '--in-doubt', 'verify-and-retry');
  assert.equal(retried.code, 0, retried.stdout + retried.stderr);
  assert.equal(named(), 2, 'sent again, created once');
});
