// A credential written literally where YAML reads something else: a generated password that starts
// with `!`, `&`, `*`, `{` or `#`, or holds `: `, is a tag, an anchor, an alias, a flow mapping, a
// comment or a nested mapping to YAML, and the pipeline fails at that very line. Its finding quotes the line (and a tag
// or an alias is named in the message): the password is masked there all the same, in every
// encoding, and registered with the CI's own masking, as a credential the YAML gives is
// (invalid-pipeline-credentials.test.ts), whole and as the token after the indicator.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ExitCode } from '../../src/errors.ts';
import { runCli } from '../helpers/cli.ts';
import { assertClean } from '../helpers/secrets.ts';

const PW = 'Secret123x';

/** The forms a generated password may take that YAML reads as no text: a tag, an anchor, an alias, a flow mapping, a nested mapping, a comment. */
const WRITTEN = [`!${PW}`, `&${PW}`, `*${PW}`, `{${PW}`, `${PW}: y`, `#${PW}`];

/** The server's password in a block mapping (line 6, column 15) or a flow mapping (line 3). */
const LAYOUTS = {
  block: (password: string) =>
    `version: 1\nservers:\n  prod:\n    url: https://prod.example.com\n    username: u\n    password: ${password}\nsteps:\n  - uses: transaction-log/clear\n    server: prod\n`,
  flow: (password: string) =>
    `version: 1\nservers:\n  prod: { url: https://prod.example.com, username: u, password: ${password}, timeout: 5 }\nsteps:\n  - uses: transaction-log/clear\n    server: prod\n`,
};

/** Each CI's line that registers a secret with its own masking. */
const REGISTERS = { github: '::add-mask::', azure: '##vso[task.setsecret]' };

function pipelineFile(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'enginectl-unreadable-')), 'p.yml');
  writeFileSync(file, text);
  return file;
}

for (const written of WRITTEN)
  for (const [layout, pipeline] of Object.entries(LAYOUTS))
    test(`a password written ${written} in a ${layout} mapping: validate and run (--ci github, azure) refuse the pipeline, show it in no line in any encoding, and register it whole and after its indicator`, async () => {
      const file = pipelineFile(pipeline(written));
      for (const [ci, prefix] of Object.entries(REGISTERS))
        for (const command of ['validate', 'run']) {
          const r = await runCli([command, file, '--ci', ci]);
          const said = `${command} --ci ${ci}: ${r.stdout}${r.stderr}`;
          assert.equal(r.code, ExitCode.invalidInput, said);
          const lines = `${r.stdout}\n${r.stderr}`.split('\n');
          const registered = lines.filter((l) => l.startsWith(prefix)).map((l) => l.slice(prefix.length));
          const shown = lines.filter((l) => !l.startsWith(prefix)).join('\n');
          assert.match(shown, /p\.yml:\d+:\d+ /, said);
          assertClean(`${command} --ci ${ci}`, shown, [PW]);
          for (const secret of [written, PW])
            assert.ok(
              registered.includes(secret),
              `${command} --ci ${ci} registers no ${JSON.stringify(secret)}: ${said}`,
            );
        }
    });

test('a password written *Secret123x (an alias no anchor names): the finding is at the alias, says it names no anchor and to quote the value, and never names it', async () => {
  for (const [layout, pipeline] of Object.entries(LAYOUTS)) {
    const text = pipeline(`*${PW}`);
    const line = text.split('\n').findIndex((l) => l.includes(PW)) + 1;
    const col = text.split('\n')[line - 1]!.indexOf(`*${PW}`) + 1;
    const r = await runCli(['validate', pipelineFile(text), '--ci', 'github']);
    const said = `${layout}: ${r.stdout}${r.stderr}`;
    assert.equal(r.code, ExitCode.invalidInput, said);
    assert.match(r.stderr, new RegExp(`p\\.yml:${line}:${col} .*names no anchor`), said);
    assert.match(r.stderr, /hint: .*quote/, said);
    assert.match(r.stdout, new RegExp(`^::error file=.*p\\.yml,line=${line},col=${col}::.*names no anchor`, 'm'), said);
    assert.doesNotMatch(r.stdout + r.stderr, /expands too far|fewer aliases/, said);
    // The message and its hint name no alias, not even masked: the value is the password.
    const finding = r.stderr.split('\n').filter((l) => /p\.yml:\d+:\d+ |^\s+hint: /.test(l));
    for (const l of finding) assert.ok(!l.includes(PW) && !l.includes('***'), `names the alias: ${l}`);
  }
});

test('a password written !Secret123x (a tag): the finding is at the tag, says to quote the value or read it from a secret, not to remove the tag, and never names it', async () => {
  for (const [layout, pipeline] of Object.entries(LAYOUTS)) {
    const text = pipeline(`!${PW}`);
    const line = text.split('\n').findIndex((l) => l.includes(PW)) + 1;
    const col = text.split('\n')[line - 1]!.indexOf(`!${PW}`) + 1;
    const r = await runCli(['validate', pipelineFile(text), '--ci', 'github']);
    const said = `${layout}: ${r.stdout}${r.stderr}`;
    assert.equal(r.code, ExitCode.invalidInput, said);
    assert.match(
      r.stderr,
      new RegExp(`p\\.yml:${line}:${col} the value of password starts with !, so YAML reads it as a tag`),
      said,
    );
    assert.match(r.stderr, /hint: quote the value: password: "!…" .*secrets\./, said);
    assert.doesNotMatch(r.stderr, /remove the tag/, said);
    assert.match(
      r.stdout,
      new RegExp(`^::error file=.*p\\.yml,line=${line},col=${col}::the value of password starts with !`, 'm'),
      said,
    );
    // The message and its hint name no tag, not even masked: the tag is the password's start.
    const finding = r.stderr.split('\n').filter((l) => /p\.yml:\d+:\d+ |^\s+hint: /.test(l));
    for (const l of finding) assert.ok(!l.includes(PW) && !l.includes('***'), `names the tag: ${l}`);
    // The line quoted under the finding shows the password masked.
    assertClean(`validate (${layout})`, r.stderr, [PW]);
    assert.match(r.stderr, /password: \*\*\*/, said);
  }
});

test('a tag YAML does not know, not on a credential: the finding names it and says to remove it', async () => {
  const file = pipelineFile('version: 1\nname: !custom release\nsteps:\n  - uses: transaction-log/clear\n');
  const r = await runCli(['validate', file]);
  assert.equal(r.code, ExitCode.invalidInput, r.stderr);
  assert.match(r.stderr, /p\.yml:2:7 !custom is not a YAML tag enginectl reads/);
  assert.match(r.stderr, /hint: remove the tag/);
});

test('an alias no anchor names, not a credential: the finding is at the alias and names it', async () => {
  const file = pipelineFile('version: 1\nname: *release\nsteps:\n  - uses: transaction-log/clear\n');
  const r = await runCli(['validate', file]);
  assert.equal(r.code, ExitCode.invalidInput, r.stderr);
  assert.match(r.stderr, /p\.yml:2:7 the alias \*release names no anchor/);
  assert.match(r.stderr, /\n {2}2 \| name: \*release\n/);
  assert.doesNotMatch(r.stderr, /expands too far/);
});

test("an entity's credential field written !Secret123x in a write's fields (its name ends in a credential word, as verify reads names: db_password, apiToken, clientSecret, authorization, passcode, accessKey): validate shows it in no line, and registers it", async () => {
  for (const key of [
    'ipassword',
    'db_password',
    'apiToken',
    'clientSecret',
    'authorization',
    'passcode',
    'accessKey',
  ]) {
    const file = pipelineFile(
      `version: 1\nsteps:\n  - uses: classes/update\n    with:\n      class: 12\n      id: 2001\n      fields:\n        ${key}: !${PW}\n`,
    );
    const r = await runCli(['validate', file, '--ci', 'github']);
    const said = `${key}: ${r.stdout}${r.stderr}`;
    assert.equal(r.code, ExitCode.invalidInput, said);
    const lines = `${r.stdout}\n${r.stderr}`.split('\n');
    assert.match(r.stderr, /p\.yml:8:\d+ /, said);
    assertClean(key, lines.filter((l) => !l.startsWith('::add-mask::')).join('\n'), [PW]);
    assert.ok(lines.includes(`::add-mask::${PW}`), `${key}: not registered: ${said}`);
  }
});
