// The override's identity is the detected CI system's. On GitLab (or Jenkins) the actor is GitLab's
// user login (Jenkins' BUILD_USER_ID), as docs/pipeline-format.md "Windows and freezes" says; a
// GITHUB_ACTOR variable in that job (a pipeline or trigger variable, a Jenkins build parameter: set by
// whoever starts the job) must not make the override someone else's. Before, the first actor any CI
// system could read won: GitHub's, read before GitLab's and Jenkins'.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const PIPELINE = `version: 1
freezes:
  quarter-close:
    zone: UTC
    dates: [{ from: 2026-03-28, to: 2026-04-02 }]
override-freeze: [alice]
steps:
  - id: clear
    uses: transaction-log/clear
    expected: 40m
`;

async function run(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-override-actor-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, PIPELINE);
  const r = await runCli(
    [
      'run',
      file,
      '--emulator',
      '--clock',
      '2026-03-30T01:05:00Z',
      '--journal',
      join(dir, 'j.jsonl'),
      '--override-freeze',
      '--reason',
      'INC-42',
    ],
    { env },
  );
  let journal = '';
  try {
    journal = readFileSync(join(dir, 'j.jsonl'), 'utf8');
  } catch {
    /* none */
  }
  return { ...r, journal };
}

for (const [ci, env] of [
  [
    'GitLab (user mallory, a pipeline variable GITHUB_ACTOR=alice)',
    { GITLAB_CI: 'true', GITLAB_USER_LOGIN: 'mallory', GITHUB_ACTOR: 'alice' },
  ],
  [
    'Jenkins (user mallory, a build parameter GITHUB_TRIGGERING_ACTOR=alice)',
    { JENKINS_URL: 'https://ci.example.com', BUILD_USER_ID: 'mallory', GITHUB_TRIGGERING_ACTOR: 'alice' },
  ],
] as const)
  test(`on ${ci}, --override-freeze is mallory's and refused, not alice's`, async () => {
    const r = await run(env);
    assert.doesNotMatch(
      r.journal,
      /"t":"override"/,
      `the override was recorded as another CI's actor: ${r.journal.split('\n').find((l) => l.includes('"override"'))}`,
    );
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /OVERRIDE_REFUSED|--override-freeze by mallory/);
  });
