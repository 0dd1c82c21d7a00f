// Azure reads only the first logging command of a line: a setvariable line is enginectl's from its
// start, and its value after the ] is data, escaped as Azure unescapes it (%AZP25, %0D, %0A). The
// value a later job reads is the one the report holds: an IPv6 address's :: or a ##[ in it is
// kept, never broken with a zero-width space.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

test("an output's value reaches Azure's setvariable as the report holds it: :: and ##[ kept, % and line breaks escaped", async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.state.release.application = { ...emulator.state.release.application, name: 'fe80::1##[x] 100%' };
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-azure-values-'));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    `version: 1
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - id: system
    uses: update/system
    with: { target: prod }
`,
  );
  const r = await runCli(['run', file], {
    env: {
      ENGINE_URL: url,
      ENGINE_USERNAME: 'admin',
      ENGINE_PASSWORD: 'admin',
      TF_BUILD: 'True',
      AGENT_TEMPDIRECTORY: dir,
    },
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const line = r.stdout.split('\n').find((l) => l.includes('variable=SYSTEM_CLIENT_VERSION;'));
  assert.equal(line, '##vso[task.setvariable variable=SYSTEM_CLIENT_VERSION;isoutput=true]fe80::1##[x] 100%AZP25');
});
