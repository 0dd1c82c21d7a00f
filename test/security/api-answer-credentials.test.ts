// `enginectl api` prints a server's answer into a CI log as often as into jq: an answer's credential
// fields (a user's `ipassword`, the credential-name rule of api/credential-names.ts) are printed
// masked whole, as the run's records write them, and stderr says once which ones and how to have
// them; --show-credentials prints them as the server gave them, each registered with the CI's
// masking before the answer is printed, and shown nowhere else. Through the CLI's entry, against
// the emulator over HTTP.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { assertClean } from '../helpers/secrets.ts';

const PASSWORD = 'Bot-Pw-7x9Q!z';

/** What a GitHub job's log shows: the runner reads the lines that register a secret, and shows none of them. */
const shown = (text: string) =>
  text
    .split('\n')
    .filter((l) => !l.startsWith('::add-mask::'))
    .join('\n');

/** A user of the users class (12) with a password, created through `api POST`: its key, and the environment that calls the emulator. */
async function user(t: TestContext) {
  const { url } = await startEmulator(t);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const fields = { iname: 'ci-bot', ifullname: 'CI bot', ipassword: PASSWORD };
  const created = await runCli(
    ['api', 'POST', '/api/classes/v1/classes/12/entities', '--data', JSON.stringify(fields)],
    {
      env,
    },
  );
  assert.equal(created.code, 0, created.stderr);
  const entity = JSON.parse(created.stdout) as Record<string, unknown>;
  assert.equal(entity.ipassword, '***', "the created entity's answer is printed masked too");
  assertClean('the answer of the create', created.stdout + created.stderr, [PASSWORD]);
  return { env, key: entity.ikey as number };
}

test("api prints an answer's credential fields masked whole (***), and says once on stderr which ones and how to have them", async (t) => {
  const { env, key } = await user(t);
  const got = await runCli(['api', 'GET', `/api/classes/v1/entities/${key}`], { env });
  assert.equal(got.code, 0, got.stderr);
  const entity = JSON.parse(got.stdout) as Record<string, unknown>;
  assert.equal(entity.ipassword, '***');
  assert.equal(entity.iname, 'ci-bot', 'the other fields as the server gave them');
  assertClean('stdout and stderr', got.stdout + got.stderr, [PASSWORD]);
  const told = got.stderr.split('\n').filter((l) => l !== '');
  assert.equal(told.length, 1, got.stderr);
  assert.match(told[0]!, /\.ipassword\b.*--show-credentials/);

  // A query's answer: each entity's field named by its path in the array, once.
  const query = await runCli(['api', 'GET', '/api/classes/v1/classes/12/entities?iname=ci-bot'], { env });
  assert.equal(query.code, 0, query.stderr);
  assert.deepEqual(
    (JSON.parse(query.stdout) as Record<string, unknown>[]).map((e) => e.ipassword),
    ['***'],
  );
  assertClean('the query', query.stdout + query.stderr, [PASSWORD]);
  assert.match(query.stderr, /^enginectl: .*\.\[\]\.ipassword\b.*--show-credentials/);
  assert.equal(query.stderr.split('\n').filter((l) => l !== '').length, 1, query.stderr);
});

test('api --show-credentials prints them as the server gave them, each registered with the CI first and shown nowhere else', async (t) => {
  const { env, key } = await user(t);
  const github = { ...env, GITHUB_ACTIONS: 'true' };
  const got = await runCli(['api', 'GET', `/api/classes/v1/entities/${key}`, '--show-credentials'], { env: github });
  assert.equal(got.code, 0, got.stderr);
  assert.equal((JSON.parse(got.stdout) as Record<string, unknown>).ipassword, PASSWORD, 'for jq -r .ipassword');
  const lines = got.output.split('\n');
  assert.equal(
    lines.find((l) => l.includes(PASSWORD)),
    `::add-mask::${PASSWORD}`,
    `registered with GitHub's masking before the answer shows it:\n${got.output}`,
  );
  assertClean('stderr, but for its registrations', shown(got.stderr), [PASSWORD]);
});

test('api --show-credentials says which value it prints unregistered (a word), and that a CI with no masking at run time shows them', async (t) => {
  const { env, key } = await user(t);
  const patched = await runCli(
    ['api', 'PATCH', `/api/classes/v1/entities/${key}`, '--data', '[{"ibegin": {"iauth": "local"}}]'],
    { env },
  );
  assert.equal(patched.code, 0, patched.stderr);
  assert.match(patched.stderr, /\.ibegin\.iauth\b/);
  const github = await runCli(['api', 'GET', `/api/classes/v1/entities/${key}`, '--show-credentials'], {
    env: { ...env, GITHUB_ACTIONS: 'true' },
  });
  assert.equal(github.code, 0, github.stderr);
  assert.equal((JSON.parse(github.stdout) as { ibegin: { iauth: string } }).ibegin.iauth, 'local');
  // A word is not registered (the runner would mask it in every later line of the job): said so, by path.
  assert.doesNotMatch(github.stderr, /^::add-mask::local$/m);
  assert.match(github.stderr, /^enginectl: warning: .*\.ibegin\.iauth\b.*not registered/m);
  assert.doesNotMatch(shown(github.stderr), /\.ipassword\b/, 'the password is registered: no warning of it');

  const gitlab = await runCli(['api', 'GET', `/api/classes/v1/entities/${key}`, '--show-credentials'], {
    env: { ...env, GITLAB_CI: 'true' },
  });
  assert.equal(gitlab.code, 0, gitlab.stderr);
  assert.equal((JSON.parse(gitlab.stdout) as Record<string, unknown>).ipassword, PASSWORD);
  assert.match(gitlab.stderr, /^enginectl: warning: .*gitlab.*takes no secret at run time/im);
  assertClean('stderr', gitlab.stderr, [PASSWORD]);
});

test("api --data's credential-named fields (ipassword) are secrets of the call, registered with the CI before it is sent: a call refused answers no entity to learn them from", async (t) => {
  const { url } = await startEmulator(t);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', GITHUB_ACTIONS: 'true' };
  const sent = 'Sent-Pw-4k2P!q';
  // Without ifullname: refused (HTTP 400), as a gateway's error page that quotes the body would be.
  const refused = await runCli(
    [
      'api',
      'POST',
      '/api/classes/v1/classes/12/entities',
      '--data',
      JSON.stringify({ iname: 'ci-bot-2', ipassword: sent }),
    ],
    { env },
  );
  assert.equal(refused.code, 1, refused.stderr);
  assert.ok(refused.stderr.split('\n').includes(`::add-mask::${sent}`), refused.stderr);
  assertClean('stdout and stderr, but for its registrations', refused.stdout + shown(refused.stderr), [sent]);
});

test('api --show-credentials registers every value it prints, past the bound a run keeps to (150 users)', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const base = emulator.state.entities.find((e) => e.ikey === 2001)!;
  for (let i = 0; i < 150; i++)
    emulator.state.entities.push({
      ...structuredClone(base),
      ikey: 300_000 + i,
      iname: `many-${i}`,
      ipassword: `Pw-${i}-x7Qz`,
    });
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', GITHUB_ACTIONS: 'true' };
  const got = await runCli(['api', 'GET', '/api/classes/v1/classes/12/entities', '--show-credentials'], { env });
  assert.equal(got.code, 0, got.stderr);
  const masks = new Set(
    got.output
      .split('\n')
      .filter((l) => l.startsWith('::add-mask::'))
      .map((l) => l.slice('::add-mask::'.length)),
  );
  for (let i = 0; i < 150; i++) assert.ok(masks.has(`Pw-${i}-x7Qz`), `Pw-${i}-x7Qz registered before it is printed`);
});
