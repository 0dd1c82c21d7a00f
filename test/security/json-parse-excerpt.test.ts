// V8's JSON.parse error quotes 10 characters of the text where it stopped ("Unexpected token 'T',
// "TkN8prodTo"... is not valid JSON"). Before, an answer labelled JSON whose text started with a
// secret, or held one as a bare (unquoted) value, put the secret's first 10 characters into the
// invalid-response message (terminal, journal, reports, the action's annotations): a prefix no
// masking form matches. The message now says where the text stopped being JSON, never its text.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { ALL_SCOPES } from '../../src/api/scopes.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { actionDef } from '../../src/action/definitions.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';

const TOKEN = 'TkN8prodTokenQq3Vv';
const PASSWORD = 'Zq9PassWordXy7Kk';

const BODIES: Record<string, (secret: string) => string> = {
  'text starting with the secret': (s) => `${s}: not accepted for this database, see the server log`,
  'the secret as a bare value': (s) =>
    `{"status": "refused", "token": ${s}, "detail": "the token is not accepted here"}`,
};

/** The emulator with the deployer's login and the target token, whose answer at `path` is `text`, labelled JSON. */
async function answeringJson(t: TestContext, path: string, text: string): Promise<string> {
  const { url, emulator } = await startEmulator(t);
  emulator.users.push({ name: 'deployer', password: PASSWORD, scopes: new Set(ALL_SCOPES) });
  emulator.state.databases.find((d) => d.name === 'PROD')!.tokens.push(TOKEN);
  const handle = emulator.handle.bind(emulator);
  emulator.handle = (req) => {
    const answer = handle(req);
    return req.path === path ? { ...answer, contentType: 'application/json', body: text } : answer;
  };
  return url;
}

for (const [name, body] of Object.entries(BODIES))
  for (const [which, secret, path] of [
    ['the target token', TOKEN, '/api/devops/v1/update/vfs'],
    ['the API password', PASSWORD, '/api/monitoring/v1/engines'],
  ] as const)
    test(`an answer labelled JSON, ${name} (${which}), shows no part of it`, async (t) => {
      const url = await answeringJson(t, path, body(secret));
      const dir = mkdtempSync(join(tmpdir(), 'enginectl-probe-json-'));
      const file = join(dir, 'p.yml');
      writeFileSync(
        file,
        `version: 1
name: Excerpt
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - uses: monitoring/engines
    continue-on-error: true
  - uses: update/vfs
    with: { target: prod, files: [1001] }
`,
      );
      const out = (n: string) => join(dir, n);
      const r = await runCli(
        ['run', file, '--journal', out('journal'), '--report-json', out('r.json'), '--summary', out('r.md')],
        { env: { PROD_TOKEN: TOKEN, ENGINE_URL: url, ENGINE_USERNAME: 'deployer', ENGINE_PASSWORD: PASSWORD } },
      );
      const channels: Record<string, string> = { terminal: r.stdout + r.stderr };
      for (const n of readdirSync(dir).filter((f) => f !== 'p.yml')) channels[n] = readFileSync(out(n), 'utf8');
      assert.match(channels.terminal!, /not valid JSON/, 'the answer was read as invalid JSON');
      const prefix = secret.slice(0, 10);
      const leaked = Object.entries(channels)
        .filter(([, text]) => text.includes(prefix))
        .map(
          ([channel, text]) =>
            `${channel}: ${text.slice(Math.max(0, text.indexOf(prefix) - 40), text.indexOf(prefix) + 20)}`,
        );
      assert.deepEqual(leaked, [], `channels that show the first 10 characters of ${which}`);
    });

test('the action: an answer labelled JSON starting with the target token shows no part of it in its annotations, log or outputs', async (t) => {
  const url = await answeringJson(t, '/api/devops/v1/update/vfs', BODIES['text starting with the secret']!(TOKEN));
  const run = await runActionInProcess(actionDef('enginectl'), {
    files: {
      'release.yml': `version: 1
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - uses: update/vfs
    with: { target: prod, files: [1001] }
`,
    },
    inputs: { pipeline: 'release.yml' },
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'deployer', ENGINE_PASSWORD: PASSWORD, PROD_TOKEN: TOKEN },
  });
  const { secrets, ...shown } = run;
  assert.ok(secrets.includes(TOKEN), 'the token is registered with the runner');
  const text = JSON.stringify(shown);
  assert.match(text, /not valid JSON/);
  assert.ok(
    !text.includes(TOKEN.slice(0, 10)),
    text.slice(Math.max(0, text.indexOf(TOKEN.slice(0, 10)) - 80), text.indexOf(TOKEN.slice(0, 10)) + 30),
  );
});
