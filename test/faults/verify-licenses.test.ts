// verify and run --resume --in-doubt verify|verify-and-retry of a licensing write whose fate is
// unknown, while someone else works on the licenses too: a license that appeared since proves the
// add applied only when it is one the code holds; nothing proves either not applied (a license has
// no id, version or creation time: the licenses of before read the same as the code's added and
// removed since, or the license removed and added again since).
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { sealLicenses } from '../../src/emulator/license-code.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const MINUTE = 60_000;
const LICENSES = '/api/licensing/v1/licenses';

/** A pipeline creating a code for one license of `product` and adding it; or adding `code` as given. */
const adding = (name: string, product: number, quantity: number, code?: string) => `version: 1
name: ${name}
steps:
${
  code === undefined
    ? `  - id: code
    uses: licensing/create
    with: { licensee-id: ACME-001, licensee-name: ACME Corp, expiration: "2027-12-31", licenses: [{ product: ${product}, quantity: ${quantity}, type: connection }] }
`
    : ''
}  - id: add
    uses: licensing/add
    with: { code: "${code ?? '${{ steps.code.outputs.code }}'}" }
    longest: 1m
`;

async function setup(t: TestContext) {
  const clock = simulatedClock();
  const { url, emulator } = await startEmulator(t, { now: clock.now });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-verify-licenses-'));
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const cli = (args: string[], extra: Record<string, string> = {}) =>
    runCli(args, { env: { ...env, ...extra }, clock });
  const sleep = (ms: number) => clock.sleep(ms, new AbortController().signal);
  const of = (product: number) => emulator.state.licenses.filter((l) => l.productKey === product);
  const posts = () => emulator.requests.filter((r) => r.method === 'POST' && r.path === LICENSES).length;
  return { emulator, dir, file, cli, sleep, of, posts, journal: join(dir, 'run.journal.jsonl') };
}

/** Another team's pipeline, run meanwhile: ERP Core (product 1) licensed anew, 50 connections until 2027-12-31. */
async function anotherTeamAddsErp(s: Awaited<ReturnType<typeof setup>>) {
  const other = await s.cli(['run', s.file('erp.yml', adding('Add ERP seats', 1, 50))]);
  assert.equal(other.code, 0, other.stdout + other.stderr);
}

test('licensing/add never applied while another pipeline added a license for another product: not "applied" on that license; past longest: cannot tell (the license the code holds added and removed since reads the same), and verify-and-retry sends nothing', async (t) => {
  const s = await setup(t);
  const crm = s.file('crm.yml', adding('Add CRM', 3, 5));
  s.emulator.faults.add({ method: 'POST', path: LICENSES, reset: 'before', times: 1 });
  const run = await s.cli(['run', crm, '--journal', s.journal]);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.equal(s.of(3).length, 0, 'the CRM license was never added');
  await s.sleep(MINUTE);
  await anotherTeamAddsErp(s);
  await s.sleep(5 * MINUTE);

  const verified = await s.cli(['verify', s.journal]);
  assert.doesNotMatch(verified.stdout, /^applied /m, verified.stdout);
  assert.doesNotMatch(
    verified.stdout,
    /ERP Core \(product 1.*: not there just before the call, there now/,
    verified.stdout,
  );
  assert.match(
    verified.stdout,
    /^cannot-tell +"Add licenses" \(POST \/api\/licensing\/v1\/licenses\): product 3 has no license, as just before the call, and not the one the code holds \(product 3, connection 5, until 2027-12-31, as "Create a license code" asked for it\); but a license has no id, version or creation time, so the one the code holds, added and removed since \(or replaced by the license of before\), reads the same: check on the server, then decide \(skip or retry\)$/m,
  );

  // Cannot tell: nothing is sent; the operator, who finds it not there, runs the pipeline anew
  // (sending it again needs the code, which the journal masked).
  const sent = s.posts();
  const resumed = await s.cli(['run', crm, '--resume', s.journal, '--in-doubt', 'verify-and-retry']);
  assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
  assert.match(
    resumed.stderr,
    /cannot resume: verify could not settle an in-doubt call: "Add licenses" .*: cannot-tell: /,
  );
  assert.equal(s.posts() - sent, 0, 'nothing sent');
  const anew = await s.cli(['run', crm]);
  assert.equal(anew.code, 0, anew.stdout + anew.stderr);
  assert.equal(s.of(3).length, 1, 'the CRM license is added by the new run');
  assert.equal(s.of(1)[0]!.expiration, '2027-12-31', "the other team's license stays");
});

test('licensing/add applied, its answer lost, while another pipeline added a license: applied on the license the code holds, not on the other', async (t) => {
  const s = await setup(t);
  const crm = s.file('crm.yml', adding('Add CRM', 3, 5));
  s.emulator.faults.add({ method: 'POST', path: LICENSES, reset: 'after', times: 1 });
  const run = await s.cli(['run', crm, '--journal', s.journal]);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.equal(s.of(3).length, 1, 'the CRM license was added');
  await anotherTeamAddsErp(s);
  await s.sleep(5 * MINUTE);

  const verified = await s.cli(['verify', s.journal]);
  assert.equal(verified.code, 0, verified.stdout + verified.stderr);
  assert.match(
    verified.stdout,
    /^applied +"Add licenses" \(POST \/api\/licensing\/v1\/licenses\): CRM \(product 3, connection 5, until 2027-12-31\): the license the code holds \(as "Create a license code" asked for it\), not there just before the call, there now$/m,
  );
  const sent = s.posts();
  const resumed = await s.cli(['run', crm, '--resume', s.journal, '--in-doubt', 'verify-and-retry']);
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.equal(s.posts() - sent, 0, 'not sent again');
});

test('licensing/add of a code no step of the run created (a secret), never applied, while another pipeline added a license: cannot tell, and verify-and-retry sends nothing', async (t) => {
  const s = await setup(t);
  // A code from the licenser, kept as a secret: what it holds is not known to enginectl.
  const code = sealLicenses({
    licenseVersion: 3,
    licenses: [
      {
        productName: 'CRM',
        productKey: 3,
        type: 'connection',
        quantity: 5,
        extensions: [],
        licenseeName: 'ACME Corp',
        licenseeId: 'ACME-001',
        licenserKey: 7001,
        expiration: '2027-12-31',
      },
    ],
  });
  const crm = s.file('crm.yml', adding('Add CRM', 3, 5, '${{ secrets.CRM_CODE }}'));
  const secret = { CRM_CODE: code };
  s.emulator.faults.add({ method: 'POST', path: LICENSES, reset: 'before', times: 1 });
  const run = await s.cli(['run', crm, '--journal', s.journal], secret);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  await s.sleep(MINUTE);
  await anotherTeamAddsErp(s);
  await s.sleep(5 * MINUTE);

  const verified = await s.cli(['verify', s.journal], secret);
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.match(
    verified.stdout,
    /^cannot-tell +"Add licenses" \(POST \/api\/licensing\/v1\/licenses\): ERP Core \(product 1, connection 50, until 2027-12-31\): not there just before the call, there now; ERP Core \(product 1, connection 50, until \d{4}-\d\d-\d\d\): there just before the call, gone or changed since; but what the code holds is not known \(no licensing\/create step of the run made it\): someone else's change reads the same: check on the server, then decide \(skip or retry\)$/m,
  );
  assert.doesNotMatch(verified.stdout, new RegExp(code.slice(0, 12)), 'the code stays masked');

  const sent = s.posts();
  const resumed = await s.cli(['run', crm, '--resume', s.journal, '--in-doubt', 'verify-and-retry'], secret);
  assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
  assert.equal(s.posts() - sent, 0, 'nothing sent');
  assert.equal(s.of(3).length, 0);
});

const REMOVE = `version: 1
name: Remove
steps:
  - id: remove
    uses: licensing/remove
    with: { key: 2 }
    longest: 1m
`;

/** A licensing/remove of Payroll's license (product 2) that the server applied, its answer a gateway's 504. */
async function removedAndCut(t: TestContext, options: { snapshotFails?: boolean } = {}) {
  const s = await setup(t);
  const file = s.file('remove.yml', REMOVE);
  const payroll = structuredClone(s.of(2));
  assert.equal(payroll.length, 1);
  // The read before the write answered 503 on every attempt: no snapshot, a warning.
  if (options.snapshotFails) s.emulator.faults.add({ method: 'GET', path: LICENSES, status: 503, times: 4 });
  s.emulator.faults.add({ method: 'DELETE', path: `${LICENSES}/2`, gateway: 504, times: 1 });
  const run = await s.cli(['run', file, '--journal', s.journal]);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  if (options.snapshotFails) assert.match(run.stdout + run.stderr, /could not read the target before the write/);
  assert.equal(s.of(2).length, 0, 'removed');
  const deletes = () => s.emulator.requests.filter((r) => r.method === 'DELETE').length;
  return { ...s, file, payroll: payroll[0]!, deletes };
}

/** verify cannot tell, and verify-and-retry removes nothing: the license there now stays. */
async function cannotTellNorRemove(s: Awaited<ReturnType<typeof removedAndCut>>, evidence: RegExp) {
  await s.sleep(5 * MINUTE);
  const verified = await s.cli(['verify', s.journal]);
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.match(verified.stdout, evidence);
  const sent = s.deletes();
  const resumed = await s.cli(['run', s.file, '--resume', s.journal, '--in-doubt', 'verify-and-retry']);
  assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
  assert.equal(s.deletes() - sent, 0, 'no DELETE sent');
  assert.equal(s.of(2).length, 1, 'the license added since stays');
}

test('licensing/remove applied and its answer lost, the same license added again since: cannot tell (a license has no id or version), and verify-and-retry does not remove it', async (t) => {
  const s = await removedAndCut(t);
  s.emulator.state.licenses.push(structuredClone(s.payroll)); // the same code added again
  await cannotTellNorRemove(
    s,
    /^cannot-tell +"Remove a license" \(DELETE \/api\/licensing\/v1\/licenses\/2\): GET \/api\/licensing\/v1\/licenses\/2 answers 200: product 2 has Payroll \(product 2, nominalUser 25, until \d{4}-\d\d-\d\d\), the same in every field as just before the call; but a license has no id, version or creation time, so one removed and added again since reads the same: check on the server, then decide \(skip or retry\)$/m,
  );
});

test('licensing/remove applied and its answer lost, the license renewed since (another expiration): cannot tell, and verify-and-retry does not remove the renewal', async (t) => {
  const s = await removedAndCut(t);
  s.emulator.state.licenses.push({ ...structuredClone(s.payroll), expiration: '2028-06-30' });
  await cannotTellNorRemove(
    s,
    /^cannot-tell +"Remove a license" .*: GET \/api\/licensing\/v1\/licenses\/2 answers 200: product 2 has Payroll \(product 2, nominalUser 25, until 2028-06-30\), not the license of just before the call \(Payroll \(product 2, nominalUser 25, until \d{4}-\d\d-\d\d\)\): removed and another added since, or changed: check on the server, then decide \(skip or retry\)$/m,
  );
});

test('licensing/remove whose read before the write failed, applied and its answer lost, the license added again since: cannot tell, never not applied', async (t) => {
  const s = await removedAndCut(t, { snapshotFails: true });
  s.emulator.state.licenses.push(structuredClone(s.payroll));
  await cannotTellNorRemove(
    s,
    /^cannot-tell +"Remove a license" .*: GET \/api\/licensing\/v1\/licenses\/2 answers 200: product 2 has Payroll \(product 2, nominalUser 25, until \d{4}-\d\d-\d\d\), and no snapshot says which license it had just before the call: a license has no id or version, so one removed and added again since reads the same: check on the server, then decide \(skip or retry\) \(reading the target before the call failed: .*\)$/m,
  );
});
