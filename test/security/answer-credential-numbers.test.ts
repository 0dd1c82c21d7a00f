// A credential an answer gave as a number (a numeric password, a one-time passcode: learnt by the
// run's masker, runner/answer-secrets.ts) that a later step passes on as a typed number, a whole
// `${{ }}` resolving to the number itself: in a write's fields, in an api/request body. The server
// is sent the number; no record of the run shows it: the step's inputs and its call in the journal,
// the reports (JSON, JUnit, HTML, the summary, and those `enginectl report` makes from the
// journal), the dotenv file and the CI's outputs, the log. Masked in the journal, such a number is
// not compared by verify, as a masked text secret is not: verify and --in-doubt verify decide the
// write from its readable fields and the entity's version. A typed number shorter than 6 digits is
// never taken for a secret (a key, a version, a 4-digit `4711` an answer held under a credential
// name, written masked there): shown as it is.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { encodeLine } from '../../src/journal/frame.ts';
import { valuesHash } from '../../src/journal/hashing.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { assertClean } from '../helpers/secrets.ts';

const PASSWORD = 73915508;
const PASSCODE = 482913;
const SECRETS = [String(PASSWORD), String(PASSCODE)];

const PIPELINE = `version: 1
name: Numeric credentials
steps:
  - id: get
    uses: classes/get
    with: { class: 12, id: 2001 }
  - id: copy
    name: Copy the credentials
    uses: classes/update
    with:
      class: 12
      id: 2002
      fields:
        ipassword: "\${{ steps.get.outputs.entity.ipassword }}"
        ibegin: { passcode: "\${{ steps.get.outputs.entity.ibegin.passcode }}" }
  - id: raw
    uses: api/request
    with:
      method: PATCH
      path: /api/classes/v1/classes/12/entities/2002
      body: [{ ihomeprocess: "\${{ steps.get.outputs.entity.ibegin.passcode }}" }]
`;

/** What a CI log shows: the runner reads the lines that register a secret, and shows none of them. */
const shown = (text: string) => text.replace(/^::add-mask::.*$/gm, '');

/** What assertClean says of `text` (which form of either credential it holds, and where), or nothing. */
function leak(channel: string, text: string): string[] {
  try {
    assertClean(channel, text, SECRETS);
    return [];
  } catch (error) {
    return [(error as Error).message.split('\n')[0]!];
  }
}

test('a credential an answer gave as a number, passed on typed to a later write, is sent as it is, and no record shows it: the journal, every report, the log', async (t) => {
  const { url, emulator } = await startEmulator(t);
  Object.assign(
    emulator.state.entities.find((e) => e.ikey === 2001)!,
    {
      ipassword: PASSWORD,
      ibegin: { passcode: PASSCODE },
    },
  );
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-answer-numbers-'));
  const file = join(dir, 'numbers.yml');
  writeFileSync(file, PIPELINE);
  const summary = join(dir, 'gh-summary.md');
  writeFileSync(summary, '');
  writeFileSync(join(dir, 'github-output'), '');
  const reports = (prefix: string) => [
    '--report-json',
    join(dir, `${prefix}.json`),
    '--junit',
    join(dir, `${prefix}.xml`),
    '--html',
    join(dir, `${prefix}.html`),
    '--summary',
    join(dir, `${prefix}.md`),
  ];
  const journal = join(dir, 'run.journal.jsonl');
  const env = {
    ENGINE_URL: url,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    GITHUB_ACTIONS: 'true',
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_OUTPUT: join(dir, 'github-output'),
  };
  const run = await runCli(['run', file, '--journal', journal, '--dotenv', join(dir, 'out.env'), ...reports('run')], {
    env,
  });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  // The server was sent the numbers as numbers.
  const written = emulator.state.entities.find((e) => e.ikey === 2002)!;
  assert.equal(written.ipassword, PASSWORD);
  assert.deepEqual(written.ibegin, { passcode: PASSCODE });
  assert.equal(written.ihomeprocess, PASSCODE);

  const again = await runCli(['report', journal, ...reports('again')], { env });
  assert.equal(again.code, 0, again.stdout + again.stderr);
  const channels: [string, string][] = [
    ['run stdout', shown(run.stdout)],
    ['run stderr', run.stderr],
    ['report stdout', again.stdout + again.stderr],
    ...readdirSync(dir)
      .filter((name) => name !== 'numbers.yml')
      .map((name): [string, string] => [name, readFileSync(join(dir, name), 'utf8')]),
  ];
  assert.ok(channels.length >= 15, channels.map(([name]) => name).join(', '));
  assert.deepEqual(
    channels.flatMap(([channel, text]) => leak(channel, text)),
    [],
    'no channel shows a credential',
  );
});

const PROVE = `version: 1
name: Numeric proof
steps:
  - id: get
    uses: classes/get
    with: { class: 12, id: 2001 }
  - id: copy
    uses: classes/update
    longest: 1m
    with:
      class: 12
      id: 2002
      fields:
        iname: asmith
        ismtpserver: 4711
        ihomeprocess: "\${{ steps.get.outputs.entity.ibegin.passcode }}"
`;
const ASMITH = '/api/classes/v1/classes/12/entities/2002';

async function proof(t: TestContext, steps = '') {
  // Moves only by the test's waits (test/recovery/entity-proof.test.ts).
  const clock = simulatedClock(Date.parse('2026-03-10T05:00:10Z'), () => 0);
  const { url, emulator } = await startEmulator(t, { now: clock.now });
  // A passcode (learnt: 6 digits) and a 4-digit pin (written masked in the answer, not learnt).
  Object.assign(
    emulator.state.entities.find((e) => e.ikey === 2001)!,
    { ibegin: { passcode: PASSCODE, pin: 4711 } },
  );
  Object.assign(
    emulator.state.entities.find((e) => e.ikey === 2002)!,
    { ismtpserver: 4711 },
  );
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-answer-numbers-'));
  const file = join(dir, 'proof.yml');
  writeFileSync(file, PROVE + steps);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const journal = join(dir, 'run.journal.jsonl');
  const cli = (...args: string[]) => runCli(args, { env, clock });
  const asmith = () => emulator.state.entities.find((e) => e.ikey === 2002)!;
  const patches = () => emulator.requests.filter((r) => r.method === 'PATCH' && r.path === ASMITH).length;
  return {
    emulator,
    file,
    journal,
    cli,
    asmith,
    patches,
    later: (ms: number) => clock.sleep(ms, new AbortController().signal),
  };
}

test('verify of a write that sent a learnt numeric credential does not compare it (masked in the journal): reset before the server read it, not applied, and verify-and-retry sends it once; applied behind a gateway, cannot tell; a 4-digit number is shown and compared', async (t) => {
  const s = await proof(t);
  const before = JSON.stringify(s.asmith());
  s.emulator.faults.add({ method: 'PATCH', path: ASMITH, reset: 'before', times: 1 });
  const run = await s.cli('run', s.file, '--journal', s.journal);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.equal(JSON.stringify(s.asmith()), before, 'the server never read it');
  s.emulator.faults.clear();
  const said = [run.stdout, run.stderr];
  const send = readFileSync(s.journal, 'utf8')
    .split('\n')
    .find((l) => l.includes('"t":"send"'))!;
  assert.match(send, /"body":\[\{"iname":"asmith","ismtpserver":4711,"ihomeprocess":"\*\*\*"\}\]/);

  await s.later(5 * 60_000);
  const verified = await s.cli('verify', s.journal);
  said.push(verified.stdout, verified.stderr);
  assert.match(
    verified.stdout,
    /^not-applied +"Update an entity" .*: iname, ismtpserver held the written values already before the call, and the entity is at its version of just before the call \(1\): nothing was written since, so neither was ihomeprocess \(masked in the journal, not compared\)/m,
  );
  const sent = s.patches();
  const skipped = await s.cli('run', s.file, '--resume', s.journal, '--in-doubt', 'verify');
  said.push(skipped.stdout, skipped.stderr);
  assert.equal(skipped.code, 2, skipped.stdout + skipped.stderr);
  assert.match(skipped.stderr, /"Update an entity" .*: not-applied: /);
  assert.equal(s.patches(), sent, 'not treated as applied, nor sent unasked');
  const retried = await s.cli('run', s.file, '--resume', s.journal, '--in-doubt', 'verify-and-retry');
  said.push(retried.stdout, retried.stderr);
  assert.equal(retried.code, 0, retried.stdout + retried.stderr);
  assert.equal(s.patches(), sent + 1, 'sent once more');
  assert.equal(s.asmith().ihomeprocess, PASSCODE, 'the passcode written, as a number');

  // Applied, then a gateway's 504: the version moved, by this call or, for all the read shows, another.
  const other = await proof(t);
  other.emulator.faults.add({ method: 'PATCH', path: ASMITH, gateway: 504, times: 1 });
  const applied = await other.cli('run', other.file, '--journal', other.journal);
  assert.equal(applied.code, 1, applied.stdout + applied.stderr);
  assert.equal(other.asmith().ihomeprocess, PASSCODE);
  other.emulator.faults.clear();
  await other.later(5 * 60_000);
  const unsure = await other.cli('verify', other.journal);
  said.push(applied.stdout, applied.stderr, unsure.stdout, unsure.stderr);
  assert.equal(unsure.code, 1, unsure.stdout + unsure.stderr);
  assert.match(
    unsure.stdout,
    /^cannot-tell +"Update an entity" .*: iname, ismtpserver held the written values already before the call, and still do, and ihomeprocess cannot be compared \(masked in the journal\): the entity was written since \(version 1 then, 2 now\), by this call or another$/m,
  );
  const again = other.patches();
  const notRetried = await other.cli('run', other.file, '--resume', other.journal, '--in-doubt', 'verify-and-retry');
  said.push(notRetried.stdout, notRetried.stderr);
  assert.equal(notRetried.code, 2, notRetried.stdout + notRetried.stderr);
  assert.equal(other.patches(), again, 'not sent again');

  const journals = [readFileSync(s.journal, 'utf8'), readFileSync(other.journal, 'utf8')];
  assert.deepEqual(
    [...leak('what verify and the runs said', said.join('\n')), ...journals.flatMap((j) => leak('a journal', j))],
    [],
  );
});

type Rec = { t: string; key?: string; salt?: string; inputs?: unknown; body?: unknown; run?: { inputs: unknown } };

test('a resume carries a write done that sent a learnt numeric credential, its inputs masked as this journal hashed them or, written by an enginectl that did not mask a typed number, as it hashed them: never sent twice', async (t) => {
  const CHECK = `  - id: check
    uses: classes/get
    with: { class: 12, id: asmith }
`;
  const s = await proof(t, CHECK);
  // The check after the write fails (every retry): the run stops with the write done.
  s.emulator.faults.add({ method: 'GET', path: '/api/classes/v1/classes/12/entities/asmith', status: 503, times: 4 });
  const run = await s.cli('run', s.file, '--journal', s.journal);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(run.stdout, /✔ \[2\/3\] Update an entity/);
  assert.equal(s.asmith().ihomeprocess, PASSCODE);
  s.emulator.faults.clear();
  const text = readFileSync(s.journal, 'utf8');
  // The journal an enginectl that did not mask a typed number wrote: the number as it is, and so hashed.
  const lines = text.split('\n').filter(Boolean);
  const salt = (JSON.parse(lines[0]!) as Rec).salt!;
  const inputs = { id: 2002, class: 12, fields: { iname: 'asmith', ismtpserver: 4711, ihomeprocess: PASSCODE } };
  const digest = valuesHash(salt, { inputs, target: null, server: 'default' });
  const old = lines.map((line) => {
    const { crc: _crc, ...r } = JSON.parse(line) as Rec & { crc?: string };
    if (r.key !== 'id:copy' || (r.t !== 'send' && r.t !== 'end')) return encodeLine(r);
    if (r.t === 'send') return encodeLine({ ...r, body: [inputs.fields], inputs: digest });
    return encodeLine({ ...r, run: { ...r.run, inputs }, inputs: digest });
  });
  const oldJournal = `${s.journal}.old.jsonl`;
  writeFileSync(oldJournal, old.join(''));
  assert.ok(old.join('').includes(String(PASSCODE)) && !text.includes(String(PASSCODE)));

  for (const journal of [`${s.journal}`, oldJournal]) {
    const sent = s.patches();
    const resumed = await s.cli('run', s.file, '--resume', journal);
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.doesNotMatch(resumed.stdout + resumed.stderr, /its inputs changed/);
    assert.equal(s.patches(), sent, `${journal}: the write done is carried, not sent again`);
    assert.deepEqual(leak('the resumed run', resumed.stdout + resumed.stderr), []);
  }
  assert.deepEqual(leak('the journal', readFileSync(s.journal, 'utf8')), []);
});

test('a typed number that is the negative of a learnt numeric credential is masked as its text is: the journal and the report show neither', async (t) => {
  const { url, emulator } = await startEmulator(t);
  // The text "-482913" is masked "-***" (the passcode is in it); the typed -482913 too, as `***`.
  Object.assign(
    emulator.state.entities.find((e) => e.ikey === 2001)!,
    { ibegin: { passcode: PASSCODE }, ioffset: -PASSCODE },
  );
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-answer-numbers-'));
  const file = join(dir, 'negative.yml');
  writeFileSync(
    file,
    'version: 1\nname: Negative\nsteps:\n  - id: get\n    uses: classes/get\n    with: { class: 12, id: 2001 }\n',
  );
  const journal = join(dir, 'run.journal.jsonl');
  const json = join(dir, 'run.json');
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const run = await runCli(['run', file, '--journal', journal, '--report-json', json], { env });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const report = readFileSync(json, 'utf8');
  assert.equal(
    (JSON.parse(report) as { steps: { outputs: { entity: { ioffset: unknown } } }[] }).steps[0]!.outputs.entity.ioffset,
    '***',
    'the negative is in the report, masked',
  );
  assert.deepEqual(
    [
      ['run', run.stdout + run.stderr],
      ['the journal', readFileSync(journal, 'utf8')],
      ['the JSON report', report],
    ].flatMap(([channel, text]) => leak(channel!, text!)),
    [],
  );
});
