// Which values of an answer's credential fields the run's masker learns (runner/answer-secrets.ts):
// a number is a credential as a text is (a passcode 482913); a value that reads as a word or is
// short (an `iauth` of `local`) is written masked in the answer's records but not learnt for every
// line and not sent to the CI's masking, which cannot take it back; and a query of thousands of
// users registers each distinct value once, up to a bound, the others still masked by enginectl.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { assertClean } from '../helpers/secrets.ts';

type Entity = Record<string, unknown>;
type Step = { id?: string; name: string; outputs: Record<string, unknown>; result: unknown };

async function setup(t: TestContext, pipeline: string, fields: Entity) {
  const { url, emulator } = await startEmulator(t);
  Object.assign(
    emulator.state.entities.find((e) => e.ikey === 2001)!,
    fields,
  );
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-answer-values-'));
  const file = join(dir, 'answers.yml');
  writeFileSync(file, pipeline);
  const [journal, json] = [join(dir, 'run.journal.jsonl'), join(dir, 'r.json')];
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const run = await runCli(['run', file, '--journal', journal, '--report-json', json, '--ci', 'github'], { env });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const report = JSON.parse(readFileSync(json, 'utf8')) as { steps: Step[] };
  return { emulator, run, journal: readFileSync(journal, 'utf8'), report, json: readFileSync(json, 'utf8') };
}

/** What the CI log shows: the runner reads its commands that register a secret, and shows none of them. */
const shown = (text: string) =>
  text
    .split('\n')
    .filter((l) => !l.startsWith('::add-mask::'))
    .join('\n');
const registered = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('::add-mask::'))
    .map((l) => l.slice('::add-mask::'.length));

test('a number under a credential name is a secret: written masked in the journal and the report, masked in the log, registered; a boolean is shown', async (t) => {
  const s = await setup(
    t,
    `version: 1
name: Passcode
steps:
  - id: get
    uses: classes/get
    with: { class: 12, id: 2001 }
  - name: "Check \${{ steps.get.outputs.entity.ibegin.passcode }}"
    uses: classes/get
    with: { class: 12, id: 2001 }
`,
    { ibegin: { passcode: 482913, smsAuth: true }, ipassword: 73915508 },
  );
  assertClean('the journal', s.journal, ['482913', '73915508']);
  assertClean('the JSON report', s.json, ['482913', '73915508']);
  assertClean('the log', shown(s.run.stdout + s.run.stderr), ['482913', '73915508']);
  assert.match(s.run.stdout, /Check \*\*\*/);
  const entity = s.report.steps[0]!.result as Entity;
  assert.equal(entity.ipassword, '***');
  // A boolean says whether, never what: two values no mask could hide in text, and no credential.
  assert.deepEqual(entity.ibegin, { passcode: '***', smsAuth: true });
  assert.equal(((s.report.steps[0]!.outputs.entity as Entity).ibegin as Entity).passcode, '***');
  for (const value of ['482913', '73915508'])
    assert.ok(registered(s.run.stdout).includes(value), `${value} registered`);
  assert.ok(!registered(s.run.stdout).includes('true'), 'a boolean is not registered');
});

test('a word or a short value under a credential name is written masked in the records, but neither masked in every line nor registered with the CI', async (t) => {
  const words = { iauth: 'local', authorization: 'LDAP', apiToken: 'disabled', x_auth: 'Basic', pin_passcode: 4711 };
  const s = await setup(
    t,
    `version: 1
name: Words
steps:
  - id: get
    uses: classes/get
    with: { class: 12, id: 2001 }
  - name: "Sync local users from LDAP (Basic, 4711 disabled) with \${{ steps.get.outputs.entity.ibegin.clientSecret }}"
    uses: classes/get
    with: { class: 12, id: 2001 }
`,
    { ibegin: { ...words, clientSecret: 'Cl1ent-S3cret-99' } },
  );
  const name = 'Sync local users from LDAP (Basic, 4711 disabled) with ***';
  assert.equal(
    s.run.stdout.split('\n').find((l) => l.startsWith('▶ [2/2]')),
    `▶ [2/2] ${name} (classes/get)`,
  );
  assert.equal(s.report.steps[1]!.name, name);
  assert.ok(s.journal.includes(`"name":${JSON.stringify(name)}`), 'the journal names the step as it is');
  // The field itself is never shown: the answer's records write it masked, whatever it holds.
  const ibegin = (s.report.steps[0]!.result as Entity).ibegin as Entity;
  for (const key of [...Object.keys(words), 'clientSecret']) assert.equal(ibegin[key], '***', key);
  assert.match(
    s.journal,
    /"ibegin":\{"iauth":"\*\*\*","authorization":"\*\*\*","apiToken":"\*\*\*","x_auth":"\*\*\*","pin_passcode":"\*\*\*"/,
  );
  const told = registered(s.run.stdout);
  assert.ok(told.includes('Cl1ent-S3cret-99'), 'the secret is registered');
  for (const word of Object.values(words).map(String))
    for (const form of [word, Buffer.from(word).toString('base64'), Buffer.from(word).toString('hex')])
      assert.ok(
        !told.includes(form),
        `${form} (${word}) is not registered: the runner would mask it in every later line of the job`,
      );
});

test('a query of 10,000 users registers each distinct credential once, and at most 100 of them; every one is still masked in every record and line', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const base = emulator.state.entities.find((e) => e.ikey === 2001)!;
  // 10,000 users, two of each password: 5,000 distinct values.
  for (let i = 0; i < 10_000; i++)
    emulator.state.entities.push({
      ...structuredClone(base),
      ikey: 100_000 + i,
      iname: `u${i}`,
      ipassword: `Pw-${i >> 1}-x7Qz`,
    });
  // The last one's password, past the bound, is given to a later step as its secret input: registered then.
  emulator.state.entities.at(-1)!.ipassword = 'Late-Pw-x7Qz';
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-answer-values-'));
  const file = join(dir, 'users.yml');
  writeFileSync(
    file,
    `version: 1
name: Users
steps:
  - id: users
    uses: classes/query
    with: { class: 12 }
  - name: "Check \${{ steps.users.outputs.entities[9000].ipassword }}"
    uses: classes/get
    with: { class: 12, id: 2001 }
  - id: last
    uses: classes/get
    with: { class: 12, id: 109999 }
  - uses: licensing/add
    continue-on-error: true
    with: { code: "\${{ steps.last.outputs.entity.ipassword }}" }
`,
  );
  const [journalFile, json] = [join(dir, 'run.journal.jsonl'), join(dir, 'r.json')];
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const run = await runCli(['run', file, '--journal', journalFile, '--report-json', json, '--ci', 'github'], { env });
  assert.equal(run.code, 0, shown(run.stdout) + run.stderr);

  const told = registered(run.stdout);
  const values = told.filter((v) => /^Pw-\d+-x7Qz$/.test(v));
  assert.equal(new Set(values).size, values.length, 'each distinct value registered once');
  assert.ok(values.length > 0 && values.length <= 100, `${values.length} values registered`);
  assert.ok(told.length < 2_000, `${told.length} ::add-mask:: lines for 5,000 distinct values`);
  assert.match(shown(run.stdout) + run.stderr, /ipassword in an answer of classes\/query: .*only the first 100/);
  assert.ok(
    told.includes('Late-Pw-x7Qz'),
    'a value past the bound that a step takes as a secret input is registered then',
  );

  // Those past the bound are masked by enginectl all the same: in the answer's records, and where a later step shows one.
  const SECRET = /Pw-(\d+-)?x7Qz/;
  const journal = readFileSync(journalFile, 'utf8');
  assert.doesNotMatch(journal, SECRET);
  assert.doesNotMatch(readFileSync(json, 'utf8'), SECRET);
  assert.doesNotMatch(shown(run.stdout) + run.stderr, SECRET);
  assert.ok(run.stdout.includes('▶ [2/4] Check *** (classes/get)'), 'a value past the bound is masked in a later name');
  assert.ok(journal.includes('"name":"Check ***"'));
  const report = JSON.parse(readFileSync(json, 'utf8')) as { steps: Step[] };
  const entities = report.steps[0]!.outputs.entities as Entity[];
  assert.equal(entities.length, 10_003);
  for (const entity of entities)
    if (entity.ipassword !== null) assert.equal(entity.ipassword, '***', String(entity.iname));
});

test('a passphrase of words, or a long word, under a credential name is learnt: masked in a later step that reads it, registered', async (t) => {
  const secrets = { ipassword: 'correct horse battery staple', clientSecret: 'PLAINWORDSECRET' };
  const s = await setup(
    t,
    `version: 1
name: Passphrase
steps:
  - id: get
    uses: classes/get
    with: { class: 12, id: 2001 }
  - name: "pw \${{ steps.get.outputs.entity.ipassword }} cs \${{ steps.get.outputs.entity.ibegin.clientSecret }}"
    uses: classes/get
    with: { class: 12, id: 2001 }
`,
    { ipassword: secrets.ipassword, ibegin: { clientSecret: secrets.clientSecret } },
  );
  const values = Object.values(secrets);
  assertClean('the journal', s.journal, values);
  assertClean('the JSON report', s.json, values);
  assertClean('the log', shown(s.run.stdout + s.run.stderr), values);
  for (const value of values) assert.ok(registered(s.run.stdout).includes(value), `${value} registered`);
});
