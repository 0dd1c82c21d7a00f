// The CI systems' registry is the only list of them, and every fact of a CI system is in its file
// in src/ci/systems/: a new system (Bitbucket) is one file, its line in detect.ts and its docs.
// The CI system is chosen once per command: --ci is honoured by the annotations of an invalid file.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CI_SYSTEMS } from '../../src/ci/detect.ts';
import { actorOf, jobMatrixTooLong, runUrlOf, workspaceOf } from '../../src/ci/facts.ts';
import type { CiSystem } from '../../src/ci/system.ts';
import { runCli } from '../helpers/cli.ts';

const SYSTEMS = new URL('../../src/ci/systems/', import.meta.url);

test('every file in src/ci/systems/ is a system of the registry, and the registry holds no other', async () => {
  const files = readdirSync(SYSTEMS).filter((f) => f.endsWith('.ts'));
  const found: CiSystem[] = [];
  for (const file of files) {
    const module = (await import(new URL(file, SYSTEMS).href)) as Record<string, unknown>;
    const systems = Object.values(module).filter(
      (v): v is CiSystem => typeof v === 'object' && v !== null && 'detect' in v && 'name' in v,
    );
    assert.equal(systems.length, 1, `${file} exports one CI system`);
    assert.ok(CI_SYSTEMS.includes(systems[0]!), `${file}: its system is not in CI_SYSTEMS (src/ci/detect.ts)`);
    found.push(systems[0]!);
  }
  assert.equal(found.length, CI_SYSTEMS.length, 'every registered system has its file');
  assert.equal(CI_SYSTEMS.at(-1)!.name, 'plain', 'plain, which always matches, is detected last');
});

/** Every .ts file under a directory. */
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });

test("no file of src/ outside src/ci/ reads a CI system's variables or names the systems (the action's own GitHub context apart)", () => {
  const ci =
    /\b(GITHUB_ACTOR|GITHUB_WORKSPACE|GITHUB_RUN_ID|GITLAB_[A-Z_]+|CI_PROJECT_DIR|CI_JOB_URL|TF_BUILD|BUILD_[A-Z_]+|AGENT_[A-Z_]+|JENKINS_[A-Z_]+|CI_NODE_[A-Z]+|JOB_COMPLETION_INDEX)\b/;
  const names = /['"`]github, gitlab, azure, jenkins/;
  const offending = sources('src')
    .filter((f) => !f.startsWith('src/ci/') && !f.startsWith('src/action/'))
    .filter((f) => {
      const text = readFileSync(f, 'utf8');
      return ci.test(text) || names.test(text);
    });
  assert.deepEqual(offending, []);
});

test("the facts come from the systems' files: actor, workspace, run page, job-matrix limits", () => {
  assert.equal(actorOf({ GITLAB_CI: 'true', GITLAB_USER_LOGIN: 'gl', USER: 'me' }), 'gl');
  assert.equal(
    actorOf({ GITLAB_CI: 'true', GITLAB_USER_LOGIN: 'gl', GITHUB_ACTOR: 'gh', BUILD_REQUESTEDFOR: 'az' }),
    'gl',
    "the detected system's actor only: another's variable in the job names no one",
  );
  assert.equal(actorOf({ GITHUB_ACTOR: 'gh', USER: 'me' }), 'me', 'outside CI, the user');
  assert.equal(actorOf({ USER: 'me' }), 'me');
  assert.equal(workspaceOf({ BUILD_SOURCESDIRECTORY: '/a' }, '/cwd'), '/a');
  assert.equal(workspaceOf({}, '/cwd'), '/cwd');
  assert.equal(runUrlOf({ CI_JOB_URL: 'https://gitlab.example.com/j/1' }), 'https://gitlab.example.com/j/1');
  assert.equal(jobMatrixTooLong(200), undefined);
  assert.equal(jobMatrixTooLong(201), 'a GitLab parallel:matrix runs at most 200');
  assert.equal(jobMatrixTooLong(257), 'a GitHub Actions job matrix runs at most 256, a GitLab parallel:matrix 200');
});

test("run --ci azure on an invalid pipeline annotates in Azure's syntax, under GitHub's variables too", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-ci-'));
  const file = join(dir, 'bad.yml');
  writeFileSync(file, 'version: 1\nname: bad\nsteps:\n  - uses: no/such-step\n');
  const env = { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dir };
  const r = await runCli(['run', file, '--ci', 'azure'], { env });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stdout, /^##vso\[task\.logissue type=error;sourcepath=bad\.yml;linenumber=4;columnnumber=\d+;\]/m);
  assert.doesNotMatch(r.stdout, /^::error/m);
  // Without --ci, the system the environment names.
  const detected = await runCli(['run', file], { env });
  assert.match(detected.stdout, /^::error file=bad\.yml,line=4,col=\d+::/m);
  // validate and report take --ci too.
  const validate = await runCli(['validate', file, '--ci', 'azure'], { env });
  assert.match(validate.stdout, /^##vso\[task\.logissue type=error;sourcepath=bad\.yml/m);
});

test("report --merge --ci azure ends the job in Azure's syntax under GitHub's variables: one choice for the whole command", async (t) => {
  const { startEmulator } = await import('../helpers/emulator.ts');
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-ci-'));
  const file = join(dir, 'ok.yml');
  writeFileSync(file, 'version: 1\nname: ok\nsteps:\n  - uses: transaction-log/clear\n');
  const run = await runCli(['run', file, '--report-json', join(dir, 'r.json')], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.equal(run.code, 0, run.stderr);
  const merged = await runCli(
    ['report', '--merge', join(dir, 'r.json'), '--summary', join(dir, 's.md'), '--ci', 'azure'],
    {
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(dir, 'github-summary.md') },
    },
  );
  assert.equal(merged.code, 0, merged.stderr);
  assert.match(merged.stdout, /^##vso\[task\.uploadsummary\].*s\.md$/m);
  assert.match(merged.stdout, /^##vso\[task\.complete result=Succeeded;\]/m);
});
