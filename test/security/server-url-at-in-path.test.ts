// A server URL whose password holds a / written as is, before digits only, still parses:
// https://ciuser:52719/Zr9kQ@erp.example.com is host "ciuser", port 52719 and path
// "/Zr9kQ@erp.example.com" to the URL parser, so the password (52719/Zr9kQ) was no password to
// mask and the requests went to host "ciuser", the password in their path. A server's base URL
// whose text after its host holds an @ is refused (exit 2), named with everything from after its
// scheme up to its last @ hidden, saying to write a / in a password as %2F: a pipeline's server
// at its file:line:col, ENGINE_URL, a URL an expression gives (as the run resolves it), and the
// single-step action's url input.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { ExitCode } from '../../src/errors.ts';
import { runCli } from '../helpers/cli.ts';
import { runActionInProcess, runnerLog } from '../helpers/toolkit.ts';

const URL = 'https://ciuser:52719/Zr9kQ@erp.example.com';
/** The user part's pieces: none is printed. */
const PIECES = ['ciuser', '52719', 'Zr9kQ'];
const leaked = (text: string) => PIECES.filter((p) => text.includes(p));
const SAID = /the URL "https:\/\/\*\*\*@erp\.example\.com" holds an @ after its host.*write a \/ in a password as %2F/;

/**
 * A finding's lines without the file's line quoted under it, which shows the file as written but
 * its secrets: the URL's password is masked there (api/url-logins.ts), its user name is not.
 */
const withoutGutter = (text: string) =>
  text
    .split('\n')
    .filter((line) => !/^\s*\d+ \|/.test(line))
    .join('\n');

test('a server URL with an @ after its host is refused, its user part not shown: a pipeline server at file:line:col, ENGINE_URL, a URL an expression gives', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-url-at-'));
  const literal = join(dir, 'servers.yml');
  writeFileSync(
    literal,
    `version: 1\nservers:\n  prod: { url: "${URL}" }\nsteps:\n  - uses: monitoring/alerts\n    server: prod\n    with: { fail-on: critical }\n`,
  );
  const fromEnv = join(dir, 'default.yml');
  writeFileSync(fromEnv, 'version: 1\nsteps:\n  - uses: monitoring/alerts\n    with: { fail-on: critical }\n');
  const expression = join(dir, 'expression.yml');
  writeFileSync(
    expression,
    'version: 1\nservers:\n  prod: { url: "${{ env.API_URL }}" }\nsteps:\n  - uses: monitoring/alerts\n    server: prod\n    with: { fail-on: critical }\n',
  );
  for (const [args, env, where] of [
    [['validate', literal], {}, /servers\.yml:3:\d+ /],
    [['run', literal], {}, /servers\.yml:3:\d+ /],
    [['run', fromEnv], { ENGINE_URL: URL }, /server "default": /],
    [['api', 'GET', '/api/monitoring/v1/alerts'], { ENGINE_URL: URL }, /ENGINE_URL: /],
    [['run', expression], { API_URL: URL }, /server "prod": /],
    [['plan', expression, '--live'], { API_URL: URL }, /server "prod": /],
  ] as [string[], Record<string, string>, RegExp][]) {
    const r = await runCli(args, { env });
    const out = r.stdout + r.stderr;
    const said = `${args.join(' ')} ${JSON.stringify(Object.keys(env))}: exit ${r.code}\n${out}`;
    assert.equal(r.code, 2, said);
    assert.match(out, new RegExp(`${where.source}${SAID.source}`), said);
    assert.deepEqual(leaked(withoutGutter(out)), [], said);
    assert.deepEqual(
      leaked(out),
      out === withoutGutter(out) ? [] : ['ciuser'],
      `the password, in the file's line too: ${said}`,
    );
    assert.doesNotMatch(out, /▶/, said);
  }
  // A password's / written %2F, or an @ of the path as %40: valid.
  for (const url of ['https://ciuser:52719%2FZr9kQ@erp.example.com', 'https://erp.example.com/api%40v1']) {
    writeFileSync(
      literal,
      `version: 1\nservers:\n  prod: { url: "${url}" }\nsteps:\n  - uses: transaction-log/clear\n`,
    );
    const ok = await runCli(['validate', literal]);
    assert.equal(ok.code, 0, `${url}: ${ok.stdout}${ok.stderr}`);
  }
});

test("the single-step action's url input with an @ after its host is refused, its user part not shown", async () => {
  const run = await runActionInProcess(actionDef('transaction-log-clear'), {
    inputs: { url: URL },
  });
  const log = runnerLog(run);
  assert.equal(run.code, ExitCode.invalidInput, log);
  assert.match(run.failed.join('\n'), new RegExp(`^input url \\(or ENGINE_URL\\): ${SAID.source}`), log);
  assert.deepEqual(leaked(log), [], log);
});
