// A dotenv report enginectl writes, read by a later job as GitLab reads it (gitlab-ci-local, the
// shell executor): GitLab expands `$NAME` in a dotenv variable's value where a later job reads it,
// so a server's text holding `$CI_JOB_TOKEN` would reach that job as the job's token. Each `$` is
// written `$$` (ci/variables.ts renderDotenv), and the later job reads the text the server sent.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../helpers/action.ts';
import { committedRepo } from '../helpers/git-repo.ts';
import { pathForNestedNpx } from '../helpers/cli.ts';
import { renderDotenv } from '../../src/ci/variables.ts';

const GCL = join(ROOT, 'node_modules/gitlab-ci-local/dist/index.js');

test(
  "a dotenv value with `$` reaches a later GitLab job as written, in gitlab-ci-local: no variable's value in its place",
  { timeout: 300_000 },
  async () => {
    const value = 'v$CI_JOB_NAME-${CI_JOB_STAGE}-$$-end$';
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-gitlab-dotenv-'));
    writeFileSync(join(dir, 'made.env'), renderDotenv([{ name: 'SERVER_VERSION', value, secret: false }]).text);
    writeFileSync(
      join(dir, '.gitlab-ci.yml'),
      `stages: [deploy, after]
deploy:
  stage: deploy
  script:
    - cp made.env deploy.env
  artifacts:
    reports:
      dotenv: deploy.env
after:
  stage: after
  needs: [deploy]
  script:
    - 'printf "got<%s>\\n" "$SERVER_VERSION"'
`,
    );
    committedRepo(dir, 'dotenv');
    const said = await new Promise<string>((resolve) =>
      execFile(
        'npx',
        ['-y', 'node@24', GCL, '--force-shell-executor', '--no-color'],
        { cwd: dir, encoding: 'utf8', env: { ...process.env, PATH: pathForNestedNpx().join(':') } },
        (_error, stdout, stderr) => resolve(`${stdout}${stderr}`),
      ),
    );
    const got = /after\s+> got<(.*)>/.exec(said)?.[1];
    assert.equal(got, value, said);
  },
);
