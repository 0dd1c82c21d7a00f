// A saved plan compares what the secrets mask, masked: a file's text with every secret's value
// hidden, a write's body with them hidden. Where a secret's value is an ordinary word (a database
// name), two texts that differ only there read alike: an edit of the file from one secret's value
// to another's, or a secret's new value (the write now goes to another database), passed the check.
// With ENGINECTL_JOURNAL_KEY the plan pins them by a keyed fingerprint of what the masks hide
// (journal/fingerprint.ts: no check of a guess without the key); without it, plan --out says what
// it cannot pin.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const KEY = 'a-journal-key-of-32-characters!!';

const pipeline = (literal: string) => `version: 1
name: Masked words
vars:
  db: \${{ secrets.TARGET_DB }}
  other: \${{ secrets.OTHER_DB }}
targets:
  chosen: { server: prod-db.example.com, database: "\${{ vars.db }}", token: "\${{ secrets.DEPLOY_TOKEN }}" }
  adhoc: { server: staging-db.example.com, database: ${literal}, username: deploy, password: "\${{ secrets.STG_PASSWORD }}" }
steps:
  - id: chosen
    uses: update/vfs
    with: { target: chosen, files: [1001] }
  - id: adhoc
    uses: update/vfs
    with: { target: adhoc, files: [1001] }
`;

async function setup(t: TestContext, key: string | undefined) {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-saved-plan-masked-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, pipeline('STAGING'));
  const env = (target: string) => ({
    ENGINE_URL: url,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    DEPLOY_TOKEN: 'prod-token',
    STG_PASSWORD: 'deploy-pass',
    TARGET_DB: target,
    OTHER_DB: 'STAGING',
    ...(key ? { ENGINECTL_JOURNAL_KEY: key } : {}),
  });
  const plan = join(dir, 'plan.json');
  const made = await runCli(['plan', file, '--live', '--out', plan], { env: env('PROD') });
  assert.equal(made.code, 0, made.stdout + made.stderr);
  const posts = () => emulator.requests.filter((r) => r.method === 'POST').length;
  return { file, plan, env, made, posts };
}

test('with ENGINECTL_JOURNAL_KEY: a file edited from one secret’s value to another’s is refused (PLAN_STALE), nothing sent', async (t) => {
  const s = await setup(t, KEY);
  writeFileSync(s.file, pipeline('PROD'));
  const r = await runCli(['run', s.file, '--plan', s.plan], { env: s.env('PROD') });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /code: PLAN_STALE/);
  assert.match(r.stderr, /what the secrets mask/);
  assert.equal(s.posts(), 0, 'no write sent');
});

test('with ENGINECTL_JOURNAL_KEY: a secret whose value moved since the plan (the write goes to another database) is refused (PLAN_STALE), nothing sent; the same values run', async (t) => {
  const s = await setup(t, KEY);
  const moved = await runCli(['run', s.file, '--plan', s.plan], { env: s.env('MAIN') });
  assert.equal(moved.code, 2, moved.stdout + moved.stderr);
  assert.match(moved.stderr, /code: PLAN_STALE/);
  assert.equal(s.posts(), 0, 'no write sent');
  const same = await runCli(['run', s.file, '--plan', s.plan], { env: s.env('PROD') });
  assert.equal(same.code, 0, same.stdout + same.stderr);
  assert.equal(s.posts(), 2);
  assert.doesNotMatch(readFileSync(s.plan, 'utf8'), /STAGING|PROD"|prod-token/, 'the plan holds no secret');
});

test('without the key: plan --out warns that the plan cannot tell a change of what the secrets mask in the writes it would send', async (t) => {
  const s = await setup(t, undefined);
  assert.match(
    s.made.stderr,
    /^warning: .*a secret's value is in what a write sends, masked.*ENGINECTL_JOURNAL_KEY is not set/m,
  );
});

const QUERY = `version: 1
name: Query
steps:
  - id: drop
    uses: api/request
    with:
      method: DELETE
      path: /api/monitoring/v1/sessions
      query: { database: "\${{ secrets.DB }}", note: "\${{ env.NOTE }}" }
      expect-status: [200, 204, 404, 405]
`;

test("a write's query is part of the saved plan: a value from the environment that moved is refused (PLAN_STALE); a secret's, pinned with the key, too; nothing sent", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-saved-plan-query-'));
  const file = join(dir, 'query.yml');
  writeFileSync(file, QUERY);
  const env = (db: string, note: string) => ({
    ENGINE_URL: url,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    DB: db,
    NOTE: note,
    ENGINECTL_JOURNAL_KEY: KEY,
  });
  const plan = join(dir, 'plan.json');
  const made = await runCli(['plan', file, '--live', '--out', plan], { env: env('PROD', 'first') });
  assert.equal(made.code, 0, made.stdout + made.stderr);
  assert.doesNotMatch(readFileSync(plan, 'utf8'), /PROD/, 'the secret in the query is masked in the plan');
  const deletes = () => emulator.requests.filter((r) => r.method === 'DELETE').length;
  for (const [db, note] of [
    ['PROD', 'second'],
    ['STAGING', 'first'],
  ] as const) {
    const r = await runCli(['run', file, '--plan', plan], { env: env(db, note) });
    assert.equal(r.code, 2, `${db} ${note}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /code: PLAN_STALE/);
  }
  assert.equal(deletes(), 0, 'nothing sent');
  const same = await runCli(['run', file, '--plan', plan], { env: env('PROD', 'first') });
  assert.equal(same.code, 0, same.stdout + same.stderr);
  assert.equal(deletes(), 1);
});
