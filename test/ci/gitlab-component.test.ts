// The GitLab CI/CD component (templates/enginectl.yml), run by gitlab-ci-local as GitLab runs it:
// a consumer's .gitlab-ci.yml includes it with inputs, the configuration is checked against
// GitLab's own schema and input rules, the job runs enginectl (the shell executor: no container
// engine here; the image is tested in test/release), its JUnit and dotenv reports are exported
// as artefacts, and a later job reads the outputs as variables.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { ROOT } from '../helpers/action.ts';
import { CLI, pathForNestedNpx } from '../helpers/cli.ts';

const GCL = join(ROOT, 'node_modules/gitlab-ci-local/dist/index.js');
// gitlab-ci-local needs Node 22 or later: the registry's node package gives it.

function project(inputs: string, later: string) {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-gitlab-'));
  mkdirSync(join(dir, 'templates'));
  mkdirSync(join(dir, 'pipelines'));
  mkdirSync(join(dir, 'bin'));
  copyFileSync(join(ROOT, 'templates/enginectl.yml'), join(dir, 'templates/enginectl.yml'));
  copyFileSync(join(ROOT, 'pipelines/demo.yml'), join(dir, 'pipelines/demo.yml'));
  // The image's /usr/local/bin/enginectl, for the shell executor.
  writeFileSync(join(dir, 'bin/enginectl'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(join(dir, 'bin/enginectl'), 0o755);
  writeFileSync(
    join(dir, '.gitlab-ci.yml'),
    `stages: [deploy, after]\ninclude:\n  - local: templates/enginectl.yml\n    inputs:\n${inputs}\n${later}`,
  );
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=ci@example.com', '-c', 'user.name=ci', ...args], {
      cwd: dir,
      stdio: 'ignore',
    });
  git('init', '-q');
  git('remote', 'add', 'origin', 'https://gitlab.example.com/ops/release.git');
  git('add', '-A');
  git('commit', '-qm', 'release');
  return dir;
}

function gitlabCiLocal(dir: string, args: string[]) {
  return spawnSync('npx', ['-y', 'node@24', GCL, '--force-shell-executor', '--json-schema-validation', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, PATH: [join(dir, 'bin'), ...pathForNestedNpx()].join(':') },
  });
}

const LATER = `after:\n  stage: after\n  needs: [release]\n  script:\n    - echo "vfs updates=$VFS_UPDATES sync inserts=$SYNC_INSERTS vfs outcome=$VFS_OUTCOME"\n`;

test(
  'the component runs the pipeline, exports its JUnit and dotenv reports, and a later job reads the outputs',
  { timeout: 300_000 },
  () => {
    const dir = project(
      '      pipeline: pipelines/demo.yml\n      args: --emulator\n      job: release\n      dotenv-vars: VFS_UPDATES SYNC_INSERTS VFS_OUTCOME',
      LATER,
    );
    const r = gitlabCiLocal(dir, []);
    const said = r.stdout + r.stderr;
    assert.equal(r.status, 0, said);
    assert.match(said, /json schema validated/);
    assert.match(said, /PASS\s+release/);
    assert.match(said, /PASS\s+after/);
    assert.match(said, /release\s+> pipeline "Release 2026\.11 \(demo\)": success/);
    assert.match(said, /after\s+> vfs updates=1 sync inserts=2 vfs outcome=success/);
    const artifacts = join(dir, '.gitlab-ci-local/artifacts/release');
    for (const file of ['report.json', 'junit.xml', 'summary.md', 'report.html', 'outputs.env'])
      assert.ok(existsSync(join(artifacts, 'enginectl-reports', file)), file);
    assert.match(
      readFileSync(join(artifacts, 'enginectl-reports/junit.xml'), 'utf8'),
      /<testsuites[^>]* tests="10"[^>]* failures="0"/,
    );
    // The dotenv report as GitLab keeps it: only the named outputs, in the order of the steps.
    assert.equal(
      readFileSync(join(artifacts, '.gitlab-ci-reports/dotenv/enginectl-reports/outputs.env'), 'utf8'),
      'SYNC_INSERTS=2\nVFS_OUTCOME=success\nVFS_UPDATES=1\n',
    );
  },
);

test(
  "the component's inputs are checked as GitLab checks them: an unknown command and a missing pipeline are refused",
  { timeout: 300_000 },
  () => {
    const unknown = gitlabCiLocal(
      project('      pipeline: pipelines/demo.yml\n      command: deploy\n      job: release', LATER),
      ['--list'],
    );
    assert.notEqual(unknown.status, 0);
    assert.match(
      unknown.stdout + unknown.stderr,
      /`command` input: `deploy` cannot be used because it is not in the list of allowed options/,
    );
    const missing = gitlabCiLocal(project('      args: --emulator\n      job: release', LATER), ['--list']);
    assert.notEqual(missing.status, 0);
    assert.match(missing.stdout + missing.stderr, /`pipeline` input: required value has not been provided/);
  },
);

test("docs/ci/gitlab.md's table of the component's inputs is the template's spec", () => {
  const spec = (
    parseAllDocuments(readFileSync(join(ROOT, 'templates/enginectl.yml'), 'utf8'))[0]!.toJS() as {
      spec: { inputs: Record<string, { default?: string }> };
    }
  ).spec.inputs;
  const docs = readFileSync(join(ROOT, 'docs/ci/gitlab.md'), 'utf8');
  const rows = [...docs.matchAll(/^\| `([a-z-]+)` \| (.+?) \|/gm)].map((m) => [m[1]!, m[2]!] as const);
  assert.deepEqual(
    rows.map(([name]) => name),
    Object.keys(spec),
  );
  for (const [name, shown] of rows) {
    const value = spec[name]!.default;
    assert.equal(shown, value === undefined ? '(required)' : `\`${value === '' ? "''" : value}\``, name);
  }
});
