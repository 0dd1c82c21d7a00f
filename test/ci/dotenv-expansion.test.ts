// GitLab expands `$NAME` and `${NAME}` in a dotenv report's values in the jobs that read them
// (`$$` is a literal `$`), as it does a CI/CD variable's. A value from the server (an Engine's
// version name) holding `$CI_JOB_TOKEN` would reach a later job as that job's token, and any `$`
// in a value would be lost: the dotenv file writes each `$` as `$$`, so a later job reads the
// value the server sent. Through the CLI's run --dotenv.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

/** A value of a dotenv report as GitLab gives it to a later job: `$$` a `$`, `$NAME` and `${NAME}` the variable's value. */
function expanded(value: string, variables: Record<string, string>): string {
  return value.replace(/\$\$|\$\{(\w+)\}|\$(\w+)/g, (all, braced?: string, bare?: string) =>
    all === '$$' ? '$' : (variables[braced ?? bare!] ?? ''),
  );
}

test("run --dotenv: a server's `$` reaches a later GitLab job as the text the server sent, never a variable's value", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const version = 'v$CI_JOB_TOKEN-${CI_REGISTRY_PASSWORD}$$';
  emulator.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/vfs',
    status: 200,
    times: 1,
    contentType: 'application/json',
    body: JSON.stringify({
      success: true,
      targetDatabaseVersionInfo: {
        client: { major: 26, minor: 10, name: '2026.10' },
        server: { major: 26, minor: 10, name: version },
      },
    }),
  });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-dotenv-dollar-'));
  writeFileSync(
    join(dir, 'p.yml'),
    `version: 1
servers:
  main: { url: "${url}", username: admin, password: admin }
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - { id: vfs, uses: update/vfs, with: { target: prod, files: [1001] } }
`,
  );
  const r = await runCli(['run', join(dir, 'p.yml'), '--dotenv', join(dir, 'out.env'), '--ci', 'gitlab']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const line = readFileSync(join(dir, 'out.env'), 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VFS_SERVER_VERSION='));
  assert.ok(line, 'the output is written');
  const later = { CI_JOB_TOKEN: 'glcbt-later-job-token', CI_REGISTRY_PASSWORD: 'registry-password' };
  assert.equal(expanded(line.slice('VFS_SERVER_VERSION='.length), later), version);
});
