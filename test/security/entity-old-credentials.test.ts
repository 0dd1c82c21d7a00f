// An entity write reads its target before the write (the snapshot the journal keeps, for verify)
// and plan --live reads it to preview the change. The entity may hold an old credential: the
// password a rotation replaces, a token it does not write. The masker knows only the secrets the
// pipeline gives, so before, the old password went into the journal's snapshot as the server
// answered it and plan --live printed it in its preview (`ipassword "Old-..." -> "***"`). An old
// credential is still one (reused, still valid elsewhere): a field written with a secret, and a
// field whose name says it holds a credential, are never kept or shown in any form, and verify
// decides without them.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { assertClean } from '../helpers/secrets.ts';

const OLD_PW = 'Old-Passw0rd-xyz';
const OLD_TOKEN = 'Old-Api-T0ken-4f1c9e';
const OLD_MAIL = 'john.doe@example.com';
const NEW_PW = 'N3w-Passw0rd-abc';
const NEW_MAIL = 'j.doe.new@example.org';
const ANNA_PW = 'Anna-0ld-Secret!';
const JDOE = '/api/classes/v1/classes/12/entities/2001';

const ROTATE = `version: 1
name: Rotate
steps:
  - id: rotate
    uses: classes/update
    longest: 1m
    with:
      class: 12
      id: 2001
      fields: { ifullname: John Q. Doe, ipassword: "\${{ secrets.NEW_PW }}", iemailaddress: "\${{ secrets.NEW_MAIL }}" }
`;

const REMOVE = `version: 1
name: Remove
steps:
  - uses: classes/delete
    longest: 1m
    with: { class: 12, id: 2002 }
`;

async function setup(t: TestContext, pipeline: string) {
  const clock = simulatedClock();
  const { url, emulator } = await startEmulator(t, { now: clock.now });
  const jdoe = emulator.state.entities.find((e) => e.ikey === 2001)!;
  jdoe.ipassword = OLD_PW;
  jdoe.iapitoken = OLD_TOKEN; // a credential the call does not write
  emulator.state.entities.find((e) => e.ikey === 2002)!.ipassword = ANNA_PW;
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-old-credentials-'));
  const file = join(dir, 'pipeline.yml');
  writeFileSync(file, pipeline);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', NEW_PW, NEW_MAIL };
  const cli = (...args: string[]) => runCli(args, { env, clock });
  const later = (ms: number) => clock.sleep(ms, new AbortController().signal);
  return {
    emulator,
    dir,
    file,
    journal: join(dir, 'run.journal.jsonl'),
    cli,
    later,
    jdoe: () => emulator.state.entities.find((e) => e.ikey === 2001)!,
  };
}

type Snapshot = { t: string; value?: Record<string, unknown> };
const snapshots = (journal: string) =>
  readFileSync(journal, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Snapshot)
    .filter((r) => r.t === 'snapshot');

test('an update writing a secret keeps no form of the old one, nor of a credential it does not write: not in the journal, reports, plan --live, nor what verify says; verify still decides it', async (t) => {
  const s = await setup(t, ROTATE);
  const said: string[] = [];
  // plan --live previews the change: the readable field as it is and will be; the others not shown.
  const plan = join(s.dir, 'rotate.plan');
  const planSummary = join(s.dir, 'plan.md');
  const live = await s.cli('plan', s.file, '--live', '--out', plan, '--summary', planSummary);
  said.push(live.stdout, live.stderr, readFileSync(plan, 'utf8'), readFileSync(planSummary, 'utf8'));
  assert.equal(live.code, 0, live.stdout + live.stderr);
  assert.match(live.stdout, /ifullname "John Doe" -> "John Q\. Doe"/);

  // The PATCH reset before the server read it: in doubt, decided by verify from the snapshot.
  s.emulator.faults.add({ method: 'PATCH', path: JDOE, reset: 'before', times: 1 });
  const run = await s.cli('run', s.file, '--journal', s.journal);
  said.push(run.stdout, run.stderr);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  s.emulator.faults.clear();
  const [snapshot] = snapshots(s.journal);
  assert.equal(snapshot?.value?.ifullname, 'John Doe', 'the snapshot keeps the readable fields');
  assert.equal(snapshot?.value?.iversion, 1, 'and the version');
  assertClean('the snapshot', JSON.stringify(snapshot), [OLD_PW, OLD_TOKEN, OLD_MAIL]);

  await s.later(5 * 60_000);
  const verified = await s.cli('verify', s.journal);
  said.push(verified.stdout, verified.stderr);
  assert.match(
    verified.stdout,
    /^not-applied +"Update an entity" .*: ifullname still hold the values of just before the call/m,
  );
  const reports = ['report.json', 'report.xml', 'summary.md', 'report.html'].map((f) => join(s.dir, f));
  const resumed = await s.cli(
    ...['run', s.file, '--resume', s.journal, '--in-doubt', 'verify-and-retry'],
    ...['--report-json', reports[0]!, '--junit', reports[1]!, '--summary', reports[2]!, '--html', reports[3]!],
  );
  said.push(resumed.stdout, resumed.stderr, ...reports.map((f) => readFileSync(f, 'utf8')));
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.equal(s.jdoe().ipassword, NEW_PW, 'the password rotated');
  const report = await s.cli('report', s.journal);
  said.push(report.stdout, report.stderr, readFileSync(s.journal, 'utf8'));
  assertClean('the journal, reports, plan --live and verify', said.join('\n'), [OLD_PW, OLD_MAIL, NEW_PW, NEW_MAIL]);
});

test("a delete's snapshot and plan --live keep no form of the entity's password", async (t) => {
  const s = await setup(t, REMOVE);
  const live = await s.cli('plan', s.file, '--live');
  assert.equal(live.code, 0, live.stdout + live.stderr);
  const run = await s.cli('run', s.file, '--journal', s.journal);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const [snapshot] = snapshots(s.journal);
  assert.equal(snapshot?.value?.ikey, 2002, 'the snapshot keeps what verify reads (its key and version)');
  assert.equal(snapshot?.value?.iversion, 1);
  assertClean(
    "plan --live and the delete's snapshot",
    [live.stdout, live.stderr, JSON.stringify(snapshot)].join('\n'),
    [ANNA_PW],
  );
});

test('a field named as a credential written with a readable value: plan --live and the journal show no form of its old value, and verify decides by the version', async (t) => {
  const s = await setup(
    t,
    `version: 1
name: Token
steps:
  - uses: classes/update
    longest: 1m
    with: { class: 12, id: 2001, fields: { ipassword: New-Passw0rd-literal } }
`,
  );
  const live = await s.cli('plan', s.file, '--live');
  assert.equal(live.code, 0, live.stdout + live.stderr);
  assert.match(live.stdout, /ipassword \(not shown\) -> "New-Passw0rd-literal"/);
  s.emulator.faults.add({ method: 'PATCH', path: JDOE, reset: 'before', times: 1 });
  const run = await s.cli('run', s.file, '--journal', s.journal);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  s.emulator.faults.clear();
  await s.later(5 * 60_000);
  const verified = await s.cli('verify', s.journal);
  assert.match(
    verified.stdout,
    /^not-applied +"Update an entity" .*: ipassword do not hold the written values \(not kept before the call: a credential by its name\), and the entity is at its version of just before the call \(1\): nothing was written since/m,
  );
  const retried = await s.cli('run', s.file, '--resume', s.journal, '--in-doubt', 'verify-and-retry');
  assert.equal(retried.code, 0, retried.stdout + retried.stderr);
  assert.equal(s.jdoe().ipassword, 'New-Passw0rd-literal');
  // Applied now: verify of the journal's first call reads the written value, its value of before not needed.
  const again = await s.cli('verify', s.journal);
  const said = [live, run, verified, retried, again].flatMap((r) => [r.stdout, r.stderr]);
  assertClean('plan --live, the runs, verify and the journal', [...said, readFileSync(s.journal, 'utf8')].join('\n'), [
    OLD_PW,
  ]);
});

test('the snapshot withholds a field whose name ends in a credential word, and keeps one that holds such a word only in the middle (ilastpasswdchg, a date)', async (t) => {
  const s = await setup(
    t,
    `version: 1
name: Rename
steps:
  - uses: classes/update
    longest: 1m
    with: { class: 12, id: 2001, fields: { ifullname: John Q. Doe } }
`,
  );
  const credentials = {
    db_password: 'Db-Passw0rd-x1',
    apiToken: 'Api-T0ken-x2',
    clientSecret: 'Client-S3cret-x3',
    authorization: 'Bearer Auth-x4-xyz',
    passcode: 'Pass-C0de-x5',
    accessKey: 'Access-K3y-x6',
    access_key: 'Access-K3y-x7',
    auth: 'Auth-Value-x8',
    passwordHash: 'Hash-0f-the-x9',
  };
  const readable = { passwordMaxAgeDays: 90, lastPasswordChange: '2026-01-02', tokenExpiry: '2026-12-31' };
  Object.assign(s.jdoe(), { ibegin: { ...credentials, ...readable } });
  const run = await s.cli('run', s.file, '--journal', s.journal);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const [snapshot] = snapshots(s.journal);
  assert.match(String(snapshot?.value?.ilastpasswdchg), /^\d{4}-\d{2}-\d{2}$/, 'the date of the last password change');
  assert.equal(snapshot?.value?.ipassword, '(not kept)');
  assert.equal(snapshot?.value?.iapitoken, '(not kept)');
  const ibegin = snapshot?.value?.ibegin as Record<string, unknown>;
  for (const key of Object.keys(credentials)) assert.equal(ibegin[key], '(not kept)', key);
  for (const [key, value] of Object.entries(readable)) assert.equal(ibegin[key], value, key);
  assertClean('the snapshot', JSON.stringify(snapshot), [OLD_PW, OLD_TOKEN, ...Object.values(credentials)]);
});
