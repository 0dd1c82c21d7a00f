// An operator decides from a shell without the pipeline's secrets (decide-secrets.test.ts: decide
// asks for none). A reason that holds one of their values cannot be masked there: decide says so,
// naming them (never their values), and every reader that shows the reason kept (the decide
// listing, report --store, the continuing run) masks it with the secrets it knows, as the run does.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { assertClean } from '../helpers/secrets.ts';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

const TOKEN = 'prod-token';
const REASON = `old token ${TOKEN} rotated`;

test("decide --reason from a shell without the pipeline's secrets: a warning names them and says what to do; the decide listing, report --store and the continuing run mask the reason kept", async (t) => {
  const f = await parkFleet(t, 3, '  over: site\n  waves: [[site-001], rest]\n  on-failure: decide');
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 409, times: 1, site: 'site-002' });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;

  // The operator's shell: the store, no PROD_TOKEN.
  const decided = await runCli(
    ['decide', '--store', f.storeUrl, '--run', id, '--skip', 'site-002', '--reason', REASON],
    {
      env: {},
      clock: f.clock,
    },
  );
  assert.equal(decided.code, 0, decided.stdout + decided.stderr);
  assert.match(
    decided.stderr,
    /^enginectl: warning: .*secrets\.PROD_TOKEN is not set here: a value of it in the reason is recorded as given; decide from a shell with secrets\.PROD_TOKEN set/m,
  );
  assert.equal(f.records(id).find((r) => r.t === 'decide')?.reason, REASON, 'kept as given, as the warning says');

  // Each reader with the secret in its environment masks it where it shows the reason.
  const listed = await f.decide(id);
  assert.equal(listed.code, 0, listed.stdout + listed.stderr);
  assert.match(listed.stdout, /decided: skip site-002 \(.*\): old token \*\*\* rotated$/m);
  assertClean('the decide listing', listed.stdout + listed.stderr, [TOKEN]);

  const files = ['s.md', 'r.json', 'r.html', 'r.xml'].map((name) => join(f.dir, name));
  const [md, json, html, xml] = files as [string, string, string, string];
  const report = await runCli(
    [
      'report',
      '--store',
      f.storeUrl,
      '--run',
      id,
      '--summary',
      md,
      '--report-json',
      json,
      '--html',
      html,
      '--junit',
      xml,
    ],
    { env: f.env, clock: f.clock },
  );
  assert.match(readFileSync(md, 'utf8'), /old token \*\*\* rotated/);
  assertClean('report --store', report.stdout + report.stderr, [TOKEN]);
  for (const file of files) assertClean(file, readFileSync(file, 'utf8'), [TOKEN]);

  const done = await f.run('--continue', id);
  assert.notEqual(done.code, PARKED, done.stdout + done.stderr);
  assert.equal(done.report!.decisions[0]?.reason, 'old token *** rotated');
  assertClean('the continuing run', done.stdout + done.stderr, [TOKEN]);
});

test("the decide listing of a bake's park masks a reason kept as given, though nothing it lists reads the pipeline", async (t) => {
  const f = await parkFleet(t, 3, '  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }');
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  const timed = ['--continue', '--reason', REASON];
  const decided = await runCli(['decide', '--store', f.storeUrl, '--run', id, ...timed], { env: {}, clock: f.clock });
  assert.equal(decided.code, 0, decided.stdout + decided.stderr);
  assert.match(decided.stderr, /secrets\.PROD_TOKEN is not set here/);
  const listed = await f.decide(id);
  assert.equal(listed.code, 0, listed.stdout + listed.stderr);
  assert.match(listed.stdout, /old token \*\*\* rotated/);
  assertClean('the decide listing', listed.stdout + listed.stderr, [TOKEN]);
});
