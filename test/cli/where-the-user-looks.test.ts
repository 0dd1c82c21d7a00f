// Findings located where the user looks (issue: a fleet split across CI jobs, item 7): an error in
// an included inventory is annotated with its path from the workspace root; validate annotates
// under GitHub and Azure as run does; instances fail-fast cancels get a line in the log.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runActionBundle } from '../helpers/action.ts';
import { runCli } from '../helpers/cli.ts';

const PIPELINE = `version: 1
include: [inventory/sites.yml]
steps:
  - uses: transaction-log/clear
    server: east
`;
const INVENTORY = `servers:
  east:
    url: https://east.example.com
    username: deploy
    password: \${{ secrets.EAST_PASSWORD }}
targets:
  east: { server: east-db.example.com, database: EAST }
`;

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'enginectl-ws-'));
  mkdirSync(join(root, 'pipelines', 'inventory'), { recursive: true });
  writeFileSync(join(root, 'pipelines', 'release.yml'), PIPELINE);
  writeFileSync(join(root, 'pipelines', 'inventory', 'sites.yml'), INVENTORY);
  return root;
}

test("validate under GitHub and Azure annotates each finding at its file from the workspace root, an included inventory's too", async () => {
  const root = workspace();
  const github = await runCli(['validate', 'pipelines/release.yml'], {
    cwd: root,
    env: { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: root },
  });
  assert.equal(github.code, 2, github.stdout + github.stderr);
  assert.match(github.stdout, /^::error file=pipelines\/inventory\/sites\.yml,line=7,col=\d+::target needs a token/m);
  // The human form stays on stderr, with the same path.
  assert.match(github.stderr, /^pipelines\/inventory\/sites\.yml:7:\d+ target needs a token/m);
  const azure = await runCli(['validate', 'pipelines/release.yml'], { cwd: root, env: { TF_BUILD: 'True' } });
  assert.equal(azure.code, 2);
  assert.match(
    azure.stdout,
    /^##vso\[task\.logissue type=error;sourcepath=pipelines\/inventory\/sites\.yml;linenumber=7;columnnumber=\d+[^\]]*\]target needs a token/m,
  );
  // run refuses the same file with the same annotations.
  const run = await runCli(['run', 'pipelines/release.yml'], {
    cwd: root,
    env: { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: root, EAST_PASSWORD: 'x' },
  });
  assert.equal(run.code, 2);
  assert.match(run.stdout, /^::error file=pipelines\/inventory\/sites\.yml,line=7,col=\d+::target needs a token/m);
});

test("the root action annotates an included inventory's finding at its path from the workspace root", async (t) => {
  const r = await runActionBundle(t, {
    action: '.',
    files: { 'pipelines/release.yml': PIPELINE, 'pipelines/inventory/sites.yml': INVENTORY },
    inputs: { pipeline: 'pipelines/release.yml' },
    env: { EAST_PASSWORD: 'x' },
  });
  assert.equal(r.code, 2, r.stdout);
  assert.match(
    r.stdout,
    /^::error title=enginectl%3A invalid pipeline,file=pipelines\/inventory\/sites\.yml,line=7,col=\d+::target needs a token/m,
  );
});

test('instances fail-fast cancels get a line in the log, as in every report', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-ff-'));
  writeFileSync(
    join(dir, 'p.yml'),
    `version: 1
targets:
  staging: { server: staging-db.example.com, database: STAGING, token: "\${{ secrets.STAGING_TOKEN }}" }
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: vfs
    uses: update/vfs
    matrix: { target: [staging, prod] }
    with: { target: "\${{ matrix.target }}", files: [1001] }
`,
  );
  const r = await runCli([
    'run',
    join(dir, 'p.yml'),
    '--emulator',
    '--fault',
    'POST /api/devops/v1/update/vfs status=500 times=1',
  ]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /✖ \[1\/1\] VFS update \(target=staging\)/);
  assert.match(
    r.stdout,
    /^■ \[1\/1\] VFS update \(target=prod\): cancelled: not started: another instance of this matrix failed \(fail-fast\)$/m,
  );
});
