// One masker per command (cli/ci-masker.ts), the one its errors are masked with: a secret the
// command learns only as it resolves the pipeline (a field of a JSON secret, a value computed from
// a secret) is masked in the error it ends with and registered with the CI's masking. Before, the
// plans (plan, plan --live, run --dry-run) and run --plan's preflight learnt it in a masker of their
// own, which the error was not masked with: `run` said `"***"` where they printed the secret itself,
// and run --plan, refused before its run's masker was made, registered nothing.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

/** A field of the site's JSON secret that is no server's password: the resolving masker alone knows it. */
const FIELD = 'Kp4-field/Secret88';
const SITE = JSON.stringify({ user: 'admin', password: 'admin', proxy: FIELD });

const pipeline = (insecure: string) => `version: 1
name: site
servers:
  site:
    url: "\${{ env.SITE_URL }}"
    username: "\${{ fromJSON(secrets.SITE).user }}"
    password: "\${{ fromJSON(secrets.SITE).password }}"${insecure}
steps:
  - uses: monitoring/alerts
    server: site
`;
/** A server setting read from the wrong field of the JSON secret: refused, quoting the value. */
const WRONG_FIELD = '\n    allow-insecure-http: "${{ fromJSON(secrets.SITE).proxy }}"';

const registered = (stdout: string, form: string) => stdout.split('\n').includes(`::add-mask::${form}`);

test('plan, plan --live, run --dry-run and run --plan mask in their error, and register, a secret learnt as the pipeline resolves, as run does', async (t) => {
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-command-masker-'));
  const file = join(dir, 'site.yml');
  const env = { SITE_URL: url, SITE: SITE, GITHUB_ACTIONS: 'true' };
  // A plan saved of the pipeline as it was; then the pipeline is changed to read the wrong field.
  writeFileSync(file, pipeline(''));
  const saved = join(dir, 'plan.json');
  const made = await runCli(['plan', file, '--live', '--out', saved], { env });
  assert.equal(made.code, 0, made.stdout + made.stderr);
  writeFileSync(file, pipeline(WRONG_FIELD));
  const ran = await runCli(['run', file], { env });
  assert.equal(ran.code, 2, ran.stdout + ran.stderr);
  assert.match(ran.stderr, /allow-insecure-http: "\*\*\*" is neither true nor false/);
  assert.ok(registered(ran.stdout, FIELD), `run registers it:\n${ran.stdout}`);
  const problems: string[] = [];
  for (const args of [
    ['plan', file],
    ['plan', file, '--live'],
    ['run', file, '--dry-run'],
    ['run', file, '--plan', saved],
  ]) {
    const r = await runCli(args, { env });
    const what = args.slice(0, 1).concat(args.slice(2)).join(' ');
    assert.equal(r.code, 2, `${what}:\n${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /code: BAD_SERVER/, what);
    if (!/allow-insecure-http: "\*\*\*" is neither true nor false/.test(r.stderr) || r.stderr.includes(FIELD))
      problems.push(`${what} shows the secret:\n${r.stderr}`);
    if (!registered(r.stdout, FIELD)) problems.push(`${what} does not register it`);
  }
  assert.deepEqual(problems, []);
});
