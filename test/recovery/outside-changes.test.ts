// verify when someone else changed the target between the cut and the verify: the counterexamples
// test/fuzz/fate-outside.test.ts found, each through a real fault against the emulator on a
// simulated clock it reads too, another job's change straight to its API, then `verify` and
// `run --resume --in-doubt verify-and-retry` past the step's longest:. The emulator's request log
// is the judge of what the server applied of the run's write.
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

async function setup(t: TestContext, steps: string) {
  const clock = simulatedClock(Date.parse('2026-03-10T05:00:10Z'), () => 0);
  const { url, emulator } = await startEmulator(t, { now: clock.now });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-outside-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, `version: 1\nname: Outside\nsteps:\n${steps}`);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const journal = join(dir, 'run.journal.jsonl');
  const cli = (...args: string[]) => runCli(args, { env, clock });
  const later = (ms: number) => clock.sleep(ms, new AbortController().signal);
  /** What the server applied of `method path`: the request log's writes answered 2xx. */
  const applied = (method: string, path: string) =>
    emulator.requests.filter((r) => r.applied && r.method === method && r.path === path).length;
  /** A write of another job, straight to the emulator's API. */
  const api = async (method: string, path: string, body?: unknown) => {
    const answer = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Basic ${btoa('admin:admin')}`,
        'content-type': typeof body === 'string' ? 'text/plain' : 'application/json',
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    assert.ok(answer.ok, `${method} ${path}: ${answer.status}`);
  };
  return { emulator, file, journal, cli, later, applied, api };
}

const LICENSES = '/api/licensing/v1/licenses';
const CRM_CODE = sealLicenses({
  licenseVersion: 1,
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

test('a license added behind a gateway 504 and removed since by someone else is not proved not applied: product 3 holding no license, as before the call, reads the same; verify cannot tell, and verify-and-retry does not add it again', async (t) => {
  const s = await setup(
    t,
    `  - id: add\n    uses: licensing/add\n    with: { code: "${CRM_CODE}" }\n    longest: 10m\n`,
  );
  s.emulator.faults.add({ method: 'POST', path: LICENSES, gateway: 504, times: 1 });
  const run = await s.cli('run', s.file, '--journal', s.journal);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.equal(s.applied('POST', LICENSES), 1, 'the server added the CRM license');
  s.emulator.faults.clear();
  await s.later(MINUTE);
  // Another job removes it.
  await s.api('DELETE', `${LICENSES}/3`);
  await s.later(12 * MINUTE);

  const verified = await s.cli('verify', s.journal);
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.doesNotMatch(verified.stdout, /^not-applied /m, verified.stdout);
  assert.match(verified.stdout, /^cannot-tell +"Add licenses" /m);
  const retried = await s.cli('run', s.file, '--resume', s.journal, '--in-doubt', 'verify-and-retry');
  assert.equal(retried.code, 2, retried.stdout + retried.stderr);
  assert.equal(s.applied('POST', LICENSES), 1, 'not added a second time');
});

test('a license a licensing/create of the run made, added behind a gateway 504 and removed since by someone else, is not proved not applied', async (t) => {
  const s = await setup(
    t,
    `  - id: code
    uses: licensing/create
    with: { licensee-id: ACME-001, licensee-name: ACME Corp, expiration: "2027-12-31", licenses: [{ product: 3, quantity: 5, type: connection }] }
  - id: add
    uses: licensing/add
    with: { code: "\${{ steps.code.outputs.code }}" }
    longest: 10m
`,
  );
  s.emulator.faults.add({ method: 'POST', path: LICENSES, gateway: 504, times: 1 });
  assert.equal((await s.cli('run', s.file, '--journal', s.journal)).code, 1);
  assert.equal(s.applied('POST', LICENSES), 1, 'the server added the CRM license');
  s.emulator.faults.clear();
  await s.later(MINUTE);
  await s.api('DELETE', `${LICENSES}/3`);
  await s.later(12 * MINUTE);
  const verified = await s.cli('verify', s.journal);
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.doesNotMatch(verified.stdout, /^not-applied /m, verified.stdout);
  assert.match(verified.stdout, /^cannot-tell +"Add licenses" /m);
});
