// A credential written literally in a pipeline (an inline target's token, a server's password) is
// masked in what an invalid pipeline's findings show: the source line under each finding, the
// messages, the annotations and the job summary, and registered with the CI's masking, though
// the pipeline never loaded (its YAML read as far as it goes). Each channel also shows no part of
// a credential where the line is cut to its frame around the column.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { ExitCode } from '../../src/errors.ts';
import { runCli } from '../helpers/cli.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';

const TOKEN = 'LiteralT0ken-9f8e7d';
const PASSWORD = 'L1teral-Serv3r-Pw';
const URL_PASSWORD = 'Url-Pa55word-c4d2';

/** Fourteen file keys: the frame of the finding at `bogus` (120 characters) starts inside the token. */
const FILES = Array.from({ length: 14 }, (_, i) => 1001 + i).join(', ');

/** Invalid (an unknown input `bogus`, an unknown server key `nope`); line 9's finding is framed so that the frame's start falls inside the token. */
const PIPELINE = `version: 1
name: lit
servers:
  main: { url: "https://engine.example.com", username: deploy, password: "${PASSWORD}", timeout: 5 }
  other: { url: "https://deploy:${URL_PASSWORD}@other.example.com", nope: 1 }
steps:
  - id: vfs
    uses: update/vfs
    with: { target: { server: prod-db.example.com, database: PROD, token: "${TOKEN}" }, files: [${FILES}], bogus: 1 }
`;

/** Every run of 6 characters of each credential: no part of one may be shown. */
function assertNoPart(channel: string, text: string): void {
  for (const secret of [TOKEN, PASSWORD, URL_PASSWORD])
    for (let i = 0; i + 6 <= secret.length; i++) {
      const part = secret.slice(i, i + 6);
      const at = text.indexOf(part);
      assert.equal(at, -1, `${channel} shows "${part}" of a credential: ${text.slice(Math.max(0, at - 80), at + 80)}`);
    }
}

const registered = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('::add-mask::'))
    .map((l) => l.slice('::add-mask::'.length));
const shown = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => !l.startsWith('::add-mask::'))
    .join('\n');

test('an invalid pipeline with literal credentials: validate and run show the findings with each credential as ***, none in part, and register them with ::add-mask::', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-invalid-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, PIPELINE);
  for (const command of [
    ['validate', file],
    ['run', file],
    ['plan', file],
  ]) {
    const r = await runCli([...command, '--ci', 'github'], { env: { ENGINE_URL: 'https://engine.example.com' } });
    const said = `${command[0]}: ${r.stdout}${r.stderr}`;
    assert.equal(r.code, ExitCode.invalidInput, said);
    // The findings are there, their source lines too, each credential masked.
    assert.match(r.stderr, /p\.yml:9:\d+ .*bogus/, said);
    assert.match(r.stderr, /\n {2}4 \| .*password: "\*\*\*"/, said);
    assert.match(r.stdout, /^::error file=.*p\.yml,line=9/m, said);
    assertNoPart(`${command[0]}: stdout`, shown(r.stdout));
    assertNoPart(`${command[0]}: stderr`, r.stderr);
    for (const secret of [TOKEN, PASSWORD, URL_PASSWORD])
      assert.ok(registered(r.stdout).includes(secret), `${command[0]}: ::add-mask:: of ${secret.slice(0, 4)}…`);
  }
});

test('the root action, given an invalid pipeline with literal credentials: no credential, nor part of one, in its log, annotations, summary or failure; each is registered with the runner', async () => {
  const run = await runActionInProcess(actionDef('enginectl'), {
    files: { 'p.yml': PIPELINE },
    inputs: { pipeline: 'p.yml', url: 'https://engine.example.com' },
  });
  assert.equal(run.code, ExitCode.invalidInput);
  assert.ok(
    run.errors.some((e) => e.props?.startLine === 9 && /bogus/.test(e.message)),
    JSON.stringify(run.errors),
  );
  assert.match(run.summary, /password: "\*\*\*"/);
  const channels = {
    log: run.log.join('\n'),
    annotations: JSON.stringify([...run.errors, ...run.warnings]),
    summary: run.summary,
    failed: run.failed.join('\n'),
    outputs: JSON.stringify(run.outputs),
  };
  for (const [channel, text] of Object.entries(channels)) assertNoPart(channel, text);
  for (const secret of [TOKEN, PASSWORD, URL_PASSWORD])
    assert.ok(run.secrets.includes(secret), `setSecret of ${secret.slice(0, 4)}…`);
});

test('a finding keeps its place (FILE:LINE:COL and the gutter) as written though a literal credential reads like it; the credential is still masked in the line shown', async () => {
  // A token of `~10`: a page drops the `~`, so its view reads `10`, the line of the second finding.
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-place-'));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    'version: 1\ntargets:\n  prod: { server: prod-db.example.com, database: PROD, token: "~10" }\nsteps:\n  - uses: update/vfs\n    with: { target: prod, files: [1001] }\n    max-parallel: ""\n    continue-on-error: ""\n    retry: {}\n    x-junk: 1\n',
  );
  const r = await runCli(['validate', file]);
  assert.equal(r.code, ExitCode.invalidInput, r.stderr);
  assert.match(r.stderr, /p\.yml:10:5 unknown key "x-junk"/);
  assert.match(r.stderr, /\n {2}10 \| {5}x-junk: 1\n/);
  assert.ok(!r.stderr.includes('~10'), r.stderr);
});
