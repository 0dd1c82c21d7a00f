// An invalid pipeline's findings quote its lines: a value written there that is the environment's
// ENGINE_PASSWORD (the default server's password, which a pipeline that loads masks everywhere) is
// masked too, in the message's gutter and in the CI's annotations, though the pipeline never
// loaded. Before, only the credentials the file writes literally and the secrets.NAME it reads
// were masked: `with: { bogus: <ENGINE_PASSWORD's value> }` was shown as written.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const PASSWORD = 'Pw-S3cretZq71xK';

test("an invalid pipeline's findings mask the environment's ENGINE_PASSWORD where a line quotes it, in validate and run, in the gutter and the annotations", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-env-password-'));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    `version: 1\nname: x\nsteps:\n  - uses: transaction-log/clear\n    with: { bogus: ${PASSWORD} }\n`,
  );
  const env = { ENGINE_URL: 'https://engine.example.com', ENGINE_USERNAME: 'deploy', ENGINE_PASSWORD: PASSWORD };
  for (const command of ['validate', 'run'])
    for (const ci of [{}, { GITHUB_ACTIONS: 'true' }] as Record<string, string>[]) {
      const r = await runCli([command, file], { env: { ...env, ...ci } });
      assert.equal(r.code, 2, r.output);
      assert.match(r.output, /unknown key "bogus"/);
      const shown = r.output
        .split('\n')
        .filter((l) => !l.startsWith('::add-mask::'))
        .join('\n');
      assert.ok(!shown.includes(PASSWORD), `${command} ${JSON.stringify(ci)} shows the password:\n${shown}`);
      assert.match(shown, /with: \{ bogus: \*\*\* \}/);
    }
});
