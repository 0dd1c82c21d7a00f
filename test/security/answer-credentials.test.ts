// A step's own answer may hold an entity's credentials: classes/get, classes/query and
// classes/delete of a user answer its `ipassword`. The masker knew only the secrets the pipeline
// gives, so before, such a value went as the server answered it into the journal's end record,
// the JSON report, the action's `outputs` output, plan --live and the saved plan, and every line
// or record that showed a value computed from it (a later step's name, its body). Now each value
// of a credential-named field of an answer is learnt at once, masked everywhere and registered
// with the CI's masking; the field is written masked; a later step of the same process still reads
// the value; and a resume that would need it from a write that ended refuses.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { assertClean } from '../helpers/secrets.ts';
import { runActionInProcess, runnerLog } from '../helpers/toolkit.ts';

const JDOE_PW = 'Jdoe-Passw0rd-4711';
const ANNA_PW = 'Anna-Passw0rd-0815';
const ADMIN_PW = 'Admin-Entity-Pw-99';
const EVERY = [JDOE_PW, ANNA_PW, ADMIN_PW];

const PIPELINE = `version: 1
name: Answers
steps:
  - id: get
    uses: classes/get
    with: { class: 12, id: 2001 }
  - id: query
    uses: classes/query
    with: { class: 12, where: { iname: admin } }
  - id: remove
    uses: classes/delete
    with: { class: 12, id: 2002 }
  - id: pass-on
    name: "Pass on \${{ steps.remove.outputs.entity.ipassword }}"
    uses: classes/update
    with: { class: 12, id: 2001, fields: { ipassword: "\${{ steps.remove.outputs.entity.ipassword }}" } }
`;

async function setup(t: TestContext, pipeline = PIPELINE) {
  const { url, emulator } = await startEmulator(t);
  const entity = (key: number) => emulator.state.entities.find((e) => e.ikey === key)!;
  entity(2001).ipassword = JDOE_PW;
  entity(2002).ipassword = ANNA_PW;
  entity(-1).ipassword = ADMIN_PW;
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-answer-credentials-'));
  const file = join(dir, 'answers.yml');
  writeFileSync(file, pipeline);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const cli = (...args: string[]) => runCli(args, { env });
  return { url, emulator, entity, dir, file, journal: join(dir, 'run.journal.jsonl'), cli };
}

type Step = { id?: string; outputs: Record<string, unknown>; result: unknown };
type Entity = Record<string, unknown>;
const records = (journal: string) =>
  readFileSync(journal, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { t: string; key?: string; run?: Step; outputs?: Record<string, unknown> });
/** What the CI log shows: the runner reads its commands that register a secret, and shows none of them. */
const shown = (text: string) =>
  text
    .split('\n')
    .filter((l) => !l.startsWith('::add-mask::') && !l.startsWith('##vso[task.setsecret]'))
    .join('\n');

test("the journal's end records write an answer's credential fields masked, and hold no form of them", async (t) => {
  const s = await setup(t);
  const run = await s.cli('run', s.file, '--journal', s.journal);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const text = readFileSync(s.journal, 'utf8');
  assertClean('the journal', text, EVERY);
  const ends = records(s.journal).filter((r) => r.t === 'end');
  const end = (key: string) => JSON.stringify(ends.find((r) => r.key === key));
  assert.match(end('id:get'), /"ipassword":"\*\*\*"/);
  // ilastpasswdchg is the date of the last change, no credential: shown as it is.
  assert.match(end('id:get'), /"ilastpasswdchg":"\d{4}-\d{2}-\d{2}"/);
  assert.match(end('id:query'), /"ipassword":"\*\*\*"/);
  assert.match(end('id:remove'), /"ipassword":"\*\*\*"/);
  // The later step of the same run read the value itself: the password was passed on.
  assert.equal(s.entity(2001).ipassword, ANNA_PW);
});

test("the reports write an answer's credential fields masked: JSON, JUnit, HTML, summary, dotenv", async (t) => {
  const s = await setup(t);
  const [json, junit, html, summary, dotenv] = ['r.json', 'r.xml', 'r.html', 's.md', 'o.env'].map((f) =>
    join(s.dir, f),
  );
  const run = await s.cli(
    ...['run', s.file, '--report-json', json!, '--junit', junit!, '--html', html!, '--summary', summary!],
    ...['--dotenv', dotenv!],
  );
  assert.equal(run.code, 0, run.stdout + run.stderr);
  for (const f of [json!, junit!, html!, summary!, dotenv!]) assertClean(f, readFileSync(f, 'utf8'), EVERY);
  const report = JSON.parse(readFileSync(json!, 'utf8')) as { steps: Step[] };
  const step = (id: string) => report.steps.find((r) => r.id === id)!;
  assert.equal((step('get').outputs.entity as Entity).ipassword, '***');
  assert.equal((step('get').result as Entity).ipassword, '***');
  assert.equal((step('get').result as Entity).iname, 'jdoe', 'the readable fields as they are');
  assert.equal(((step('query').outputs.entities as Entity[])[0] as Entity).ipassword, '***');
  assert.equal((step('remove').outputs.entity as Entity).ipassword, '***');
  assert.equal(s.entity(2001).ipassword, ANNA_PW, 'the later step passed the value on');
});

test("the log masks a value computed from an answer's credential, and each is registered with the CI's masking: GitHub and Azure", async (t) => {
  for (const ci of ['github', 'azure']) {
    const s = await setup(t);
    const run = await s.cli('run', s.file, '--ci', ci);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assertClean(`the ${ci} log`, shown(run.stdout + run.stderr), EVERY);
    assert.match(run.stdout, /Pass on \*\*\*/);
    const register = ci === 'github' ? '::add-mask::' : '##vso[task.setsecret]';
    for (const pw of EVERY) assert.ok(run.stdout.includes(`${register}${pw}\n`), `${ci}: ${pw} registered`);
  }
});

test('plan --live and its saved plan show no form of a credential a read answered, nor of a value computed from it', async (t) => {
  const s = await setup(
    t,
    `version: 1
name: Copy
steps:
  - id: get
    uses: classes/get
    with: { class: 12, id: 2001 }
  - name: "Copy \${{ steps.get.outputs.entity.ipassword }}"
    uses: classes/update
    with: { class: 12, id: 2002, fields: { ipassword: "\${{ steps.get.outputs.entity.ipassword }}" } }
`,
  );
  const plan = join(s.dir, 'copy.plan');
  const live = await s.cli('plan', s.file, '--live', '--out', plan, '--ci', 'github');
  assert.equal(live.code, 0, live.stdout + live.stderr);
  assert.match(live.stdout, /ipassword \(not shown\) -> "\*\*\*"/);
  assertClean('plan --live and the saved plan', shown(live.stdout + live.stderr) + readFileSync(plan, 'utf8'), [
    JDOE_PW,
  ]);
  assert.ok(live.stdout.includes(`::add-mask::${JDOE_PW}\n`), 'registered with the runner');
});

test("the action's outputs output writes an answer's credential fields masked; each value is registered with the runner", async (t) => {
  const s = await setup(t);
  const run = await runActionInProcess(actionDef('enginectl'), {
    files: { 'answers.yml': PIPELINE },
    inputs: { pipeline: 'answers.yml', url: s.url, username: 'admin', password: 'admin' },
  });
  assert.equal(run.code, 0, runnerLog(run));
  const outputs = JSON.parse(run.outputs.outputs!) as Record<string, Record<string, Entity>>;
  assert.equal(outputs.get!.entity!.ipassword, '***');
  assert.equal(outputs.remove!.entity!.ipassword, '***');
  assertClean('the outputs', JSON.stringify(run.outputs), EVERY);
  assertClean('the log, annotations and summary', runnerLog(run) + run.summary, EVERY);
  assertClean('the JSON report', readFileSync(run.outputs.report!, 'utf8'), EVERY);
  for (const pw of EVERY) assert.ok(run.secrets.includes(pw), `${pw} registered`);
});

test('a resume whose later step needs a credential a completed write answered refuses, naming the step and the value; a read-only producer runs again', async (t) => {
  const s = await setup(
    t,
    `version: 1
name: Hand over
steps:
  - id: remove
    uses: classes/delete
    with: { class: 12, id: 2002 }
  - name: Hand the password over
    uses: classes/update
    with: { class: 12, id: 2001, fields: { ipassword: "\${{ steps.remove.outputs.entity.ipassword }}" } }
`,
  );
  // The update is refused once (not in doubt): the run fails after the delete ended.
  s.emulator.faults.add({ method: 'PATCH', path: '/api/classes/v1/classes/12/entities/2001', status: 409, times: 1 });
  const first = await s.cli('run', s.file, '--journal', s.journal);
  assert.equal(first.code, 1, first.stdout + first.stderr);
  const resumed = await s.cli('run', s.file, '--resume', s.journal);
  assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
  assert.match(
    resumed.stderr,
    /cannot resume: step 2 \("Hand the password over"\) reads steps\.remove\.outputs\.entity\.ipassword, which the journal cannot give back \(it is a secret, masked\), and classes\/delete cannot simply be run again/,
  );
  assert.match(resumed.stderr, /hint: run the pipeline from the start/);
  assertClean('the refusal', resumed.stdout + resumed.stderr, EVERY);
  assert.equal(s.entity(2001).ipassword, JDOE_PW, 'nothing was written');

  // A classes/get's answer is read again: the resume passes the password on.
  writeFileSync(
    s.file,
    `version: 1
name: Hand over
steps:
  - id: read
    uses: classes/get
    with: { class: 12, id: -1 }
  - name: Hand the password over
    uses: classes/update
    with: { class: 12, id: 2001, fields: { ipassword: "\${{ steps.read.outputs.entity.ipassword }}" } }
`,
  );
  const journal = join(s.dir, 'read.journal.jsonl');
  s.emulator.faults.add({ method: 'PATCH', path: '/api/classes/v1/classes/12/entities/2001', status: 409, times: 1 });
  assert.equal((await s.cli('run', s.file, '--journal', journal)).code, 1);
  const again = await s.cli('run', s.file, '--resume', journal);
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.equal(s.entity(2001).ipassword, ADMIN_PW);
  assertClean('the journal', readFileSync(journal, 'utf8'), EVERY);
});

test("an answer's fields named as credentials by the rule are written masked, at any depth; a name holding a credential word only in the middle is shown", async (t) => {
  const s = await setup(
    t,
    `version: 1
name: Rule
steps:
  - id: get
    uses: classes/get
    with: { class: 12, id: 2001 }
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
  };
  const readable = { passwordMaxAgeDays: 'ninety days', lastPasswordChange: 'last spring' };
  Object.assign(s.entity(2001), { ibegin: { ...credentials, ...readable } });
  const json = join(s.dir, 'r.json');
  const run = await s.cli('run', s.file, '--journal', s.journal, '--report-json', json);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const report = JSON.parse(readFileSync(json, 'utf8')) as { steps: Step[] };
  const entity = report.steps[0]!.result as Entity;
  const ibegin = entity.ibegin as Record<string, unknown>;
  for (const key of Object.keys(credentials)) assert.equal(ibegin[key], '***', key);
  for (const [key, value] of Object.entries(readable)) assert.equal(ibegin[key], value, key);
  assert.match(entity.ilastpasswdchg as string, /^\d{4}-\d{2}-\d{2}$/, 'the date of the last password change');
  assertClean('the report and the journal', readFileSync(json, 'utf8') + readFileSync(s.journal, 'utf8'), [
    ...Object.values(credentials),
    JDOE_PW,
  ]);
});
