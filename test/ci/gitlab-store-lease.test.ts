// docs/ci/gitlab.md's run store and lease job, run by gitlab-ci-local as GitLab runs it (the shell
// executor), unchanged but for the variables a project sets (the store's URL, the server and its
// credentials, given as GitLab's pipeline variables, which win over the job's): the run's journal
// lands in the store under its id, the lease is taken and given back; and while another run holds
// the lease the job fails with LEASE_HELD, having sent nothing to the server.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { pathToFileURL } from 'node:url';
import { DirectoryStore } from '../../src/store/directory.ts';
import { acquireLease, leaseState } from '../../src/store/lease.ts';
import { ROOT } from '../helpers/action.ts';
import { pathForNestedNpx } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const GCL = join(ROOT, 'node_modules/gitlab-ci-local/dist/index.js');

/** The YAML block of the docs' section on the run store and the lease. */
function docsJob(): string {
  const doc = readFileSync(join(ROOT, 'docs/ci/gitlab.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## One run at a time for the fleet'));
  return /```yaml\n([\s\S]*?)```/.exec(section)![1]!;
}

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-gitlab-lease-'));
  mkdirSync(join(dir, 'pipelines'));
  copyFileSync(join(ROOT, 'pipelines/multi-target-release.yml'), join(dir, 'pipelines/multi-target-release.yml'));
  symlinkSync(join(ROOT, 'dist'), join(dir, 'dist'));
  writeFileSync(join(dir, '.gitlab-ci.yml'), docsJob());
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=ci@example.com', '-c', 'user.name=ci', ...args], {
      cwd: dir,
      stdio: 'ignore',
    });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'release');
  return dir;
}

async function runJob(t: TestContext) {
  const { url, emulator } = await startEmulator(t);
  const storeDir = mkdtempSync(join(tmpdir(), 'enginectl-gitlab-store-'));
  const storeUrl = pathToFileURL(storeDir).href;
  const variables = {
    ENGINECTL_STORE: storeUrl,
    ENGINE_URL: url,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    STAGING_TOKEN: 'staging-token',
    PROD_TOKEN: 'prod-token',
    PROD_DEPLOY_PASSWORD: 'deploy-pass',
  };
  const dir = project();
  // Asynchronously: the emulator answers from this process while the job runs.
  const run = () =>
    new Promise<{ status: number; said: string }>((resolve) =>
      execFile(
        'npx',
        [
          '-y',
          'node@24',
          GCL,
          '--force-shell-executor',
          '--json-schema-validation',
          ...Object.entries(variables).flatMap(([k, v]) => ['--variable', `${k}=${v}`]),
        ],
        { cwd: dir, encoding: 'utf8', env: { ...process.env, PATH: pathForNestedNpx().join(':') } },
        (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, said: `${stdout}${stderr}` }),
      ),
    );
  return { run, emulator, storeDir, store: new DirectoryStore(storeUrl) };
}

test(
  "docs/ci/gitlab.md's store and lease job runs in gitlab-ci-local: the journal in the store, the lease taken and given back",
  { timeout: 300_000 },
  async (t) => {
    const { run, emulator, storeDir, store } = await runJob(t);
    const r = await run();
    const said = r.said;
    assert.equal(r.status, 0, said);
    assert.match(said, /json schema validated/);
    assert.match(said, /PASS\s+release/);
    assert.match(said, /release\s+> pipeline "Multi-target release": success/);
    const runs = readdirSync(join(storeDir, 'runs'));
    assert.equal(runs.length, 1, 'one run in the store');
    assert.ok(readdirSync(join(storeDir, 'runs', runs[0]!, 'journal')).length > 0, 'its journal is in the store');
    const lease = await leaseState(store, 'prod-fleet');
    assert.equal(lease?.record.holder.runId, runs[0], 'the lease names the run that held it');
    assert.equal(lease?.record.kind, 'release', 'the lease is given back at the end');
    assert.ok(
      emulator.requests.some((q) => q.method === 'POST' && q.path.endsWith('/update/vfs')),
      'the run wrote',
    );
  },
);

test(
  "docs/ci/gitlab.md's job, while another run holds the lease: it fails with LEASE_HELD and sends nothing",
  { timeout: 300_000 },
  async (t) => {
    const { run, emulator, store } = await runJob(t);
    const other = await acquireLease(store, 'prod-fleet', {
      holder: { runId: 'jenkins-maintenance', actor: 'jenkins', host: 'jenkins-agent-1' },
      ttlMs: 3_600_000,
      waitMs: 0,
      clock: { now: () => Date.now(), sleep: () => Promise.resolve() },
      verifyTakeover: async () => ({ evidence: [] }),
    });
    t.after(() => other.release());
    const r = await run();
    const said = r.said;
    assert.notEqual(r.status, 0, said);
    assert.match(said, /FAIL\s+release/);
    assert.match(said, /release finished in .* FAIL 2/, 'exit 2 (LEASE_HELD): safe to run again');
    assert.match(said, /lease prod-fleet is held by run jenkins-maintenance of jenkins on jenkins-agent-1/);
    assert.match(said, /hint: nothing was sent/);
    assert.deepEqual(
      emulator.requests.filter((q) => q.method !== 'GET'),
      [],
      'nothing is sent while another run holds the lease',
    );
  },
);
