// A credential written literally in a pipeline as a double-quoted YAML scalar broken over two lines
// with an escaped line break (`"first-half\` then `  second-half"`: the value is the two halves
// joined) is masked as a whole, but the finding of an invalid pipeline on the second line shows
// that line as written: the credential's second half in the log, the annotations and the job
// summary (the PR comment's text). invalid-pipeline-credentials.test.ts promises no part of one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { ExitCode } from '../../src/errors.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';

const HEAD = 'Fold3d-Pw-';
const TAIL = 'SecondHalf-7c1e';
const PASSWORD = HEAD + TAIL;

// The server's password is one value, PASSWORD, written over lines 4 and 5; line 5 also holds an unknown key.
const QUOTED = `version: 1
name: folded
servers:
  main: { url: "https://engine.example.com", username: deploy, password: "${HEAD}\\
    ${TAIL}", nope: 1 }
steps:
  - id: eng
    uses: monitoring/engines
`;
// The same as a plain scalar run onto a second line (its value the two lines joined by a space).
const PLAIN_PASSWORD = `${HEAD} ${TAIL}`;
const PLAIN = `version: 1
name: folded
servers:
  main: { url: "https://engine.example.com", username: deploy, password: ${HEAD}
    ${TAIL}, nope: 1 }
steps:
  - id: eng
    uses: monitoring/engines
`;

/** Every run of 6 characters of the credential: no part of it may be shown. */
function assertNoPart(channel: string, text: string): void {
  for (let i = 0; i + 6 <= PASSWORD.length; i++) {
    const part = PASSWORD.slice(i, i + 6);
    const at = text.indexOf(part);
    assert.equal(at, -1, `${channel} shows "${part}" of a credential: ${text.slice(Math.max(0, at - 80), at + 80)}`);
  }
}

for (const [how, pipeline, password, line] of [
  ['an escaped line break in a double-quoted scalar', QUOTED, PASSWORD, 5],
  ['a plain scalar run onto a second line', PLAIN, PLAIN_PASSWORD, 5],
] as const)
  test(`the root action, given an invalid pipeline with a literal password folded over two lines (${how}), shows no part of it`, async () => {
    const run = await runActionInProcess(actionDef('enginectl'), {
      files: { 'p.yml': pipeline },
      inputs: { pipeline: 'p.yml' },
    });
    assert.equal(run.code, ExitCode.invalidInput);
    // The finding is the unknown key, and the password is known as a secret.
    assert.ok(
      run.errors.some((e) => e.props?.startLine === line && /nope/.test(e.message)),
      JSON.stringify(run.errors),
    );
    assert.ok(run.secrets.includes(password), 'setSecret of the folded password');
    const channels = {
      log: run.log.join('\n'),
      annotations: JSON.stringify([...run.errors, ...run.warnings]),
      summary: run.summary,
      failed: run.failed.join('\n'),
    };
    for (const [channel, text] of Object.entries(channels)) assertNoPart(channel, text);
  });
