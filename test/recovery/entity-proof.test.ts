// verify of the Classes writes says applied or not applied only from what its read proves. Each
// case runs the write through a real fault against the emulator (a read before the write that
// fails, a PATCH reset before the server read it, a gateway's 504 after the server applied it),
// on a simulated clock the emulator reads too, then lets time pass the step's longest: and reads
// it back with `verify` and `run --resume --in-doubt ...`: the emulator's state is the judge.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { assertClean } from '../helpers/secrets.ts';

async function setup(t: TestContext, steps: string, more: Record<string, string> = {}) {
  // Moves only by the test's waits: the evidence's "5m after the call" never reads 5m1s on a loaded machine
  // (counted on the server's clock, the Date's second and a margin off: 4m58s).
  const clock = simulatedClock(Date.parse('2026-03-10T05:00:10Z'), () => 0);
  const { url, emulator } = await startEmulator(t, { now: clock.now });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-entity-proof-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, `version: 1\nname: Proof\nsteps:\n${steps}`);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', ...more };
  const journal = join(dir, 'run.journal.jsonl');
  const cli = (...args: string[]) => runCli(args, { env, clock });
  const later = (ms: number) => clock.sleep(ms, new AbortController().signal);
  return { emulator, url, file, journal, cli, later };
}

const CREATE = `  - id: create
    uses: classes/create
    longest: 1m
    with: { class: 12, fields: { iname: mnew, ifullname: Mary New, iversion: 7 } }
`;
const ENTITIES = '/api/classes/v1/classes/12/entities';

test('verify cannot tell a create whose read before the write failed: no entity with the written fields is no proof without the keys of just before, and verify-and-retry creates no duplicate', async (t) => {
  const s = await setup(t, CREATE);
  // The read before the write answers 503 (every retry): no snapshot. The POST creates the entity
  // (at iversion 1: the server computes the version), and a gateway answers 504.
  s.emulator.faults.add({ method: 'GET', path: ENTITIES, status: 503, times: 4 });
  s.emulator.faults.add({ method: 'POST', path: ENTITIES, gateway: 504, times: 1 });
  const run = await s.cli('run', s.file, '--journal', s.journal);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(run.stdout + run.stderr, /could not read the target before the write \(.*503.*\)/);
  const created = () => s.emulator.state.entities.filter((e) => e.iname === 'mnew').length;
  assert.equal(created(), 1, 'the server created it, at iversion 1');
  s.emulator.faults.clear();

  await s.later(5 * 60_000);
  const verified = await s.cli('verify', s.journal);
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.match(
    verified.stdout,
    /^cannot-tell +"Create an entity" .*: no entity with iname=mnew, ifullname=Mary New, iversion=7, and no snapshot of the class's entities just before the call: one created since with a field the server stores otherwise .*cannot be ruled out \(reading the target before the call failed: .*503.*\)$/m,
  );
  const posts = () => s.emulator.requests.filter((r) => r.method === 'POST' && r.path === ENTITIES).length;
  const sent = posts();
  const resumed = await s.cli('run', s.file, '--resume', s.journal, '--in-doubt', 'verify-and-retry');
  assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
  assert.match(resumed.stderr, /verify could not settle an in-doubt call: "Create an entity" .*: cannot-tell: /);
  assert.equal(posts(), sent, 'not sent again');
  assert.equal(created(), 1, 'no duplicate');
});

const NEW_PW = 'S3cret-new-password!';
const ROTATE = `  - id: rotate
    uses: classes/update
    longest: 1m
    with: { class: 12, id: 2001, fields: { iname: jdoe, ipassword: "\${{ secrets.NEW_PW }}" } }
`;
const JDOE = '/api/classes/v1/classes/12/entities/2001';

test('verify never calls applied an update whose secret field it cannot compare when its readable fields held the written values before and still do: a PATCH reset before the server read it is not applied (the version of just before), and --in-doubt verify does not skip the password it never wrote', async (t) => {
  const s = await setup(t, ROTATE, { NEW_PW });
  const jdoe = () => s.emulator.state.entities.find((e) => e.ikey === 2001)!;
  const before = JSON.stringify(jdoe());
  s.emulator.faults.add({ method: 'PATCH', path: JDOE, reset: 'before', times: 1 });
  const run = await s.cli('run', s.file, '--journal', s.journal);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.equal(JSON.stringify(jdoe()), before, 'the server never read it');
  s.emulator.faults.clear();
  const said = [run.stdout, run.stderr];

  await s.later(5 * 60_000);
  const verified = await s.cli('verify', s.journal);
  said.push(verified.stdout, verified.stderr);
  assert.doesNotMatch(verified.stdout, /^applied/m, 'the password was never written');
  assert.match(
    verified.stdout,
    /^not-applied +"Update an entity" .*: iname held the written values already before the call, and the entity is at its version of just before the call \(1\): nothing was written since, so neither was ipassword \(masked in the journal, not compared\) \((?:4m5\ds|5m) after the call, past the step's longest: 1m\)$/m,
  );
  const patches = () => s.emulator.requests.filter((r) => r.method === 'PATCH' && r.path === JDOE).length;
  const sent = patches();
  const skipped = await s.cli('run', s.file, '--resume', s.journal, '--in-doubt', 'verify');
  said.push(skipped.stdout, skipped.stderr);
  assert.equal(skipped.code, 2, skipped.stdout + skipped.stderr);
  assert.match(skipped.stderr, /"Update an entity" .*: not-applied: /);
  assert.equal(patches(), sent, 'not treated as applied, nor sent unasked');
  const retried = await s.cli('run', s.file, '--resume', s.journal, '--in-doubt', 'verify-and-retry');
  said.push(retried.stdout, retried.stderr);
  assert.equal(retried.code, 0, retried.stdout + retried.stderr);
  assert.equal(patches(), sent + 1, 'the rotation sent once');
  assert.equal(jdoe().ipassword, NEW_PW, 'the password rotated');
  assertClean('what verify and the runs said', said.join('\n'), [NEW_PW]);
});

test('verify cannot tell an update whose secret field it cannot compare when its readable fields held the written values before and still do, at another version (applied behind a gateway, or written by another) or with no snapshot; verify-and-retry sends it neither time', async (t) => {
  const s = await setup(t, ROTATE, { NEW_PW });
  const jdoe = () => s.emulator.state.entities.find((e) => e.ikey === 2001)!;
  const patches = () => s.emulator.requests.filter((r) => r.method === 'PATCH' && r.path === JDOE).length;
  // Applied, then a gateway's 504: the version moved, by this call or, for all the read shows, another.
  s.emulator.faults.add({ method: 'PATCH', path: JDOE, gateway: 504, times: 1 });
  const run = await s.cli('run', s.file, '--journal', s.journal);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.equal(jdoe().ipassword, NEW_PW);
  s.emulator.faults.clear();
  await s.later(5 * 60_000);
  const verified = await s.cli('verify', s.journal);
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.match(
    verified.stdout,
    /^cannot-tell +"Update an entity" .*: iname held the written values already before the call, and still do, and ipassword cannot be compared \(masked in the journal\): the entity was written since \(version 1 then, 2 now\), by this call or another$/m,
  );
  const sent = patches();
  const retried = await s.cli('run', s.file, '--resume', s.journal, '--in-doubt', 'verify-and-retry');
  assert.equal(retried.code, 2, retried.stdout + retried.stderr);
  assert.equal(patches(), sent, 'not sent again');

  // Another run whose read before the write failed (no snapshot), its PATCH reset before the server read it.
  const other = await setup(t, ROTATE, { NEW_PW });
  other.emulator.faults.add({ method: 'GET', path: JDOE, status: 503, times: 4 });
  other.emulator.faults.add({ method: 'PATCH', path: JDOE, reset: 'before', times: 1 });
  assert.equal((await other.cli('run', other.file, '--journal', other.journal)).code, 1);
  other.emulator.faults.clear();
  await other.later(5 * 60_000);
  const unread = await other.cli('verify', other.journal);
  assert.equal(unread.code, 1, unread.stdout + unread.stderr);
  assert.match(
    unread.stdout,
    /^cannot-tell +"Update an entity" .*: iname hold the written values, but no snapshot says whether they did just before the call, and ipassword cannot be compared \(masked in the journal\): nothing read shows whether the write was applied \(reading the target before the call failed: .*503.*\)$/m,
  );
});

const DELETE = `  - id: delete
    uses: classes/delete
    longest: 1m
    with: { class: 21, id: INV-3001 }
`;
const BY_NAME = '/api/classes/v1/classes/21/entities/INV-3001';

/** A write of another job, straight to the emulator's API. */
async function api(url: string, method: string, path: string, body: unknown) {
  const answer = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Basic ${btoa('admin:admin')}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.ok(answer.ok, `${method} ${path}: ${answer.status}`);
}

test('verify of a delete by name reads the entity it named just before the call by its key: renamed since, it is still there, whether or not another entity took the name: cannot tell, and verify-and-retry deletes neither', async (t) => {
  const s = await setup(t, DELETE);
  const invoice = () => s.emulator.state.entities.find((e) => e.ikey === 3001);
  s.emulator.faults.add({ method: 'DELETE', path: BY_NAME, reset: 'before', times: 1 });
  const run = await s.cli('run', s.file, '--journal', s.journal);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  s.emulator.faults.clear();
  // Another job renames it: the name it was deleted by names nothing now.
  const url = s.url;
  await api(url, 'PATCH', '/api/classes/v1/classes/21/entities/3001', { iname: 'INV-3001-OLD' });
  await s.later(5 * 60_000);
  const renamed = await s.cli('verify', s.journal);
  assert.equal(renamed.code, 1, renamed.stdout + renamed.stderr);
  assert.match(
    renamed.stdout,
    /^cannot-tell +"Delete an entity" .*: GET \S+\/INV-3001 answers 404, but the entity it named just before the call \(3001\) is still there \(GET \S+\/entities\/3001 answers 200\): renamed since, it was not deleted, or was deleted and inserted again$/m,
  );
  // And another entity takes the name.
  await api(url, 'POST', '/api/classes/v1/classes/21/entities', { iname: 'INV-3001', icustomer: 'Other' });
  const named = await s.cli('verify', s.journal);
  assert.equal(named.code, 1, named.stdout + named.stderr);
  assert.match(
    named.stdout,
    /^cannot-tell +"Delete an entity" .*: INV-3001 now names entity \d+, but the entity it named just before the call \(3001\) is still there \(GET \S+\/entities\/3001 answers 200\): renamed since, it was not deleted, or was deleted and inserted again$/m,
  );
  const deletes = () => s.emulator.requests.filter((r) => r.method === 'DELETE').length;
  const sent = deletes();
  const retried = await s.cli('run', s.file, '--resume', s.journal, '--in-doubt', 'verify-and-retry');
  assert.equal(retried.code, 2, retried.stdout + retried.stderr);
  assert.equal(deletes(), sent, 'not sent again');
  assert.equal(invoice()?.iname, 'INV-3001-OLD', 'the invoice renamed is kept');
  assert.equal(s.emulator.state.entities.filter((e) => e.iname === 'INV-3001').length, 1, 'the new one is kept');
});

test('verify cannot tell a delete by name that answers 404 when no snapshot says which entity the name named just before the call: renamed since, it would still be there', async (t) => {
  const s = await setup(t, DELETE);
  s.emulator.faults.add({ method: 'GET', path: BY_NAME, status: 503, times: 4 });
  s.emulator.faults.add({ method: 'DELETE', path: BY_NAME, reset: 'before', times: 1 });
  assert.equal((await s.cli('run', s.file, '--journal', s.journal)).code, 1);
  s.emulator.faults.clear();
  await api(s.url, 'PATCH', '/api/classes/v1/classes/21/entities/3001', { iname: 'INV-3001-OLD' });
  await s.later(5 * 60_000);
  const verified = await s.cli('verify', s.journal);
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.match(
    verified.stdout,
    /^cannot-tell +"Delete an entity" .*: GET \S+\/INV-3001 answers 404, but no snapshot says which entity INV-3001 named just before the call: renamed since, it would still be there \(reading the target before the call failed: .*503.*\)$/m,
  );
  assert.equal(s.emulator.state.entities.filter((e) => e.ikey === 3001).length, 1, 'not deleted');
});

test('verify of an update by name compares the entity the name named just before the call: another entity named so since (the first deleted) proves nothing of the write, and verify-and-retry does not send it to the other', async (t) => {
  const s = await setup(
    t,
    `  - id: update
    uses: classes/update
    longest: 1m
    with: { class: 12, id: jdoe, fields: { iemailaddress: new@example.com } }
`,
  );
  const path = '/api/classes/v1/classes/12/entities/jdoe';
  // Applied to entity 2001 (its version 1 -> 2), then a gateway's 504.
  s.emulator.faults.add({ method: 'PATCH', path, gateway: 504, times: 1 });
  assert.equal((await s.cli('run', s.file, '--journal', s.journal)).code, 1);
  s.emulator.faults.clear();
  // Another job deletes it and creates a jdoe again, as the first was before the call: version 1.
  await api(s.url, 'DELETE', '/api/classes/v1/classes/12/entities/2001', undefined);
  await api(s.url, 'POST', '/api/classes/v1/classes/12/entities', {
    iname: 'jdoe',
    ifullname: 'John Doe',
    iemailaddress: 'john.doe@example.com',
  });
  await s.later(5 * 60_000);
  const verified = await s.cli('verify', s.journal);
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.match(
    verified.stdout,
    /^cannot-tell +"Update an entity" .*: jdoe names entity \d+ now, not entity 2001 as just before the call: what it holds says nothing of the write$/m,
  );
  const patches = () => s.emulator.requests.filter((r) => r.method === 'PATCH' && r.path === path).length;
  const sent = patches();
  const retried = await s.cli('run', s.file, '--resume', s.journal, '--in-doubt', 'verify-and-retry');
  assert.equal(retried.code, 2, retried.stdout + retried.stderr);
  assert.equal(patches(), sent, 'not sent to the other entity');
});

const ROTATE_NESTED = `  - id: rotate
    uses: classes/update
    longest: 1m
    with: { class: 12, id: 2001, fields: { ibegin: { smtpPassword: Smtp-Passw0rd-90, theme: dark }, ipassword: "\${{ secrets.NEW_PW }}" } }
`;

test('a readable written field holding a credential-named key (its value of before not kept in the snapshot) proves nothing beside a secret: a PATCH reset before the server read it is not applied, never applied', async (t) => {
  const s = await setup(t, ROTATE_NESTED, { NEW_PW });
  const jdoe = () => s.emulator.state.entities.find((e) => e.ikey === 2001)!;
  Object.assign(jdoe(), { ibegin: { smtpPassword: 'Smtp-Passw0rd-90', theme: 'dark' } });
  const before = JSON.stringify(jdoe());
  s.emulator.faults.add({ method: 'PATCH', path: JDOE, reset: 'before', times: 1 });
  const run = await s.cli('run', s.file, '--journal', s.journal);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.equal(JSON.stringify(jdoe()), before, 'the server never read it');
  s.emulator.faults.clear();

  await s.later(5 * 60_000);
  const verified = await s.cli('verify', s.journal);
  assert.doesNotMatch(verified.stdout, /^applied/m, 'the password was never written');
  assert.match(verified.stdout, /^not-applied +"Update an entity" .*at its version of just before the call \(1\)/m);
  const patches = () => s.emulator.requests.filter((r) => r.method === 'PATCH' && r.path === JDOE).length;
  const sent = patches();
  const retried = await s.cli('run', s.file, '--resume', s.journal, '--in-doubt', 'verify-and-retry');
  assert.equal(retried.code, 0, retried.stdout + retried.stderr);
  assert.equal(patches(), sent + 1, 'sent again, once');
  assert.equal(jdoe().ipassword, NEW_PW, 'the password rotated');
});
