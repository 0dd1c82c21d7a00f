// The GitHub side of the action, against a local GitHub API that records each call: one PR
// comment per pipeline, updated (not duplicated) on the next run; a Deployment with its
// in_progress and final statuses; GitHub failures reported as warnings, never failing the deploy.
// The action runs in this process (runAction with the real Octokit client); the one test of a
// signal runs the bundle.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { golden } from '../helpers/golden.ts';
import { actionDef } from '../../src/action/definitions.ts';
import { FAKE_GITHUB_TOKEN, runActionBundle, startGitHubApi } from '../helpers/action.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';
import { assertClean } from '../helpers/secrets.ts';

const ROOT = actionDef('enginectl');

const PIPELINE = `version: 1
name: Release
steps:
  - id: sync
    uses: replication/sync
`;

test('pr-comment: one comment per pipeline, found by its hidden marker and updated on the next run', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const github = await startGitHubApi(t);
  const inputs = { pipeline: 'release.yml', url, username: 'admin', password: 'admin', 'pr-comment': 'true' };
  const options = {
    files: { 'release.yml': PIPELINE, 'other.yml': PIPELINE.replace('Release', 'Other') },
    inputs,
    event: { pull_request: { number: 7 } },
    githubApi: github.url,
  };

  const first = await runActionInProcess(ROOT, options);
  assert.equal(first.code, 0, first.failed.join('\n'));
  assert.deepEqual(github.calls.map((c) => `${c.method} ${c.path}`).sort(), [
    'GET /repos/acme/erp/issues/7/comments',
    'POST /graphql',
    'POST /repos/acme/erp/issues/7/comments',
  ]);
  assert.equal(
    github.calls.find((c) => c.method === 'POST' && c.path.endsWith('/comments'))!.authorization,
    `token ${FAKE_GITHUB_TOKEN}`,
  );
  assert.equal(github.comments.length, 1);
  assert.match(github.comments[0]!.body, /^<!-- enginectl:release\.yml -->\n## ✅ Release: success/);

  emulator.failReplication('REPLICA-2', 'disk full');
  const second = await runActionInProcess(ROOT, options);
  assert.equal(second.code, 1);
  assert.deepEqual(
    github.calls
      .slice(3)
      .map((c) => `${c.method} ${c.path}`)
      .sort(),
    ['GET /repos/acme/erp/issues/7/comments', 'PATCH /repos/acme/erp/issues/comments/1000', 'POST /graphql'],
  );
  assert.equal(github.comments.length, 1, 'updated, not duplicated');
  assert.match(github.comments[0]!.body, /## ❌ Release: failure/);

  const other = await runActionInProcess(ROOT, { ...options, inputs: { ...inputs, pipeline: 'other.yml' } });
  assert.equal(other.code, 1);
  assert.equal(github.comments.length, 2, 'another pipeline has its own comment');
  assert.match(second.log.join('\n'), /pr-comment: updated the report comment on #7/);
});

test('pr-comment: a comment by someone else that carries the marker is left alone; the action writes and then updates its own', async (t) => {
  const { url } = await startEmulator(t);
  const github = await startGitHubApi(t);
  const planted = { id: 1, body: '<!-- enginectl:release.yml -->\nplanted by mallory', user: { login: 'mallory' } };
  github.comments.push(planted);
  const options = {
    files: { 'release.yml': PIPELINE },
    inputs: { pipeline: 'release.yml', url, username: 'admin', password: 'admin', 'pr-comment': 'true' },
    event: { pull_request: { number: 7 } },
    githubApi: github.url,
  };
  const first = await runActionInProcess(ROOT, options);
  assert.equal(first.code, 0, first.failed.join('\n'));
  assert.equal(
    planted.body,
    '<!-- enginectl:release.yml -->\nplanted by mallory',
    'the planted comment is not written into',
  );
  assert.equal(github.comments.length, 2, 'a comment of its own was made');
  assert.match(github.comments[1]!.body, /## ✅ Release: success/);
  const second = await runActionInProcess(ROOT, options);
  assert.equal(second.code, 0);
  assert.equal(github.comments.length, 2, 'its own comment is updated on the next run');
  assert.ok(
    github.calls.some(
      (c) => c.method === 'PATCH' && c.path === `/repos/acme/erp/issues/comments/${github.comments[1]!.id}`,
    ),
  );
  assert.ok(!github.calls.some((c) => c.method === 'PATCH' && c.path === '/repos/acme/erp/issues/comments/1'));
});

test('pr-comment outside a pull request: a note in the log, no call', async (t) => {
  const { url } = await startEmulator(t);
  const github = await startGitHubApi(t);
  const run = await runActionInProcess(ROOT, {
    files: { 'release.yml': PIPELINE },
    inputs: { pipeline: 'release.yml', url, username: 'admin', password: 'admin', 'pr-comment': 'true' },
    githubApi: github.url,
  });
  assert.equal(run.code, 0);
  assert.match(run.log.join('\n'), /pr-comment: the push event has no pull request; no comment was written/);
  assert.equal(github.calls.length, 0);
});

test('deployment-environment: a Deployment, in_progress, then success; failure on a failed run', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const github = await startGitHubApi(t);
  const options = {
    files: { 'release.yml': PIPELINE },
    inputs: {
      pipeline: 'release.yml',
      url,
      username: 'admin',
      password: 'admin',
      'deployment-environment': 'production',
    },
    githubApi: github.url,
  };
  const ok = await runActionInProcess(ROOT, options);
  assert.equal(ok.code, 0, ok.failed.join('\n'));
  assert.deepEqual(
    github.calls.map((c) => [c.method, c.path, c.body.state ?? c.body.environment]),
    [
      ['POST', '/repos/acme/erp/deployments', 'production'],
      ['POST', '/repos/acme/erp/deployments/42/statuses', 'in_progress'],
      ['POST', '/repos/acme/erp/deployments/42/statuses', 'success'],
    ],
  );
  assert.equal(github.calls[0]!.body.ref, '0123456789abcdef0123456789abcdef01234567');
  assert.equal(github.calls[1]!.body.log_url, 'https://github.example.com/acme/erp/actions/runs/4242');
  // The replication call happens between in_progress and the final status.
  emulator.failReplication('REPLICA-1', 'gone');
  const failed = await runActionInProcess(ROOT, options);
  assert.equal(failed.code, 1);
  assert.deepEqual(
    github.calls.slice(3).map((c) => c.body.state ?? 'create'),
    ['create', 'in_progress', 'failure'],
  );
});

test('a GitHub API that refuses: a warning, and the deployment result stands', async (t) => {
  const { url } = await startEmulator(t);
  const run = await runActionInProcess(ROOT, {
    files: { 'release.yml': PIPELINE },
    inputs: {
      pipeline: 'release.yml',
      url,
      username: 'admin',
      password: 'admin',
      'deployment-environment': 'production',
      'pr-comment': 'true',
    },
    event: { pull_request: { number: 7 } },
    githubApi: 'http://127.0.0.1:9',
  });
  assert.equal(run.code, 0, run.failed.join('\n'));
  assert.equal(run.outputs.outcome, 'success');
  const warned = (text: RegExp) => run.warnings.some((w) => w.props?.title === 'enginectl' && text.test(w.message));
  assert.ok(warned(/^deployment-environment: the Deployment could not be recorded/), JSON.stringify(run.warnings));
  assert.ok(warned(/^pr-comment: the comment could not be written/), JSON.stringify(run.warnings));
});

test('credentials over plain http:// to another host: refused before any call (exit 2), the Deployment ends in error', async (t) => {
  const github = await startGitHubApi(t);
  const run = await runActionInProcess(ROOT, {
    files: { 'release.yml': PIPELINE },
    inputs: {
      pipeline: 'release.yml',
      url: 'http://erp.example.com',
      username: 'admin',
      password: 'admin',
      'deployment-environment': 'production',
    },
    githubApi: github.url,
  });
  assert.equal(run.code, 2, run.failed.join('\n'));
  assert.match(
    run.failed.join('\n'),
    /^server "default": refusing to send the user name and password over plain http:\/\/ to erp\.example\.com/,
  );
  assert.match(run.summary, /## ❌ enginectl: refused \(INSECURE_HTTP\)/);
  assert.deepEqual(
    github.calls.map((c) => c.body.state ?? 'create'),
    ['create', 'in_progress', 'error'],
  );
  assert.match(String(github.calls[2]!.body.description), /not run \(INSECURE_HTTP\)/);
});

/** A GitHub API that accepts connections and never answers. */
async function silentGitHub(t: import('node:test').TestContext) {
  const { createServer } = await import('node:http');
  const requests: string[] = [];
  const waiting: { n: number; resolve: () => void }[] = [];
  const server = createServer((req) => {
    requests.push(`${req.method} ${req.url}`);
    for (const w of waiting.filter((x) => requests.length >= x.n)) w.resolve();
  });
  /** Resolves once the server got its `n`th request. */
  const arrived = (n: number) =>
    new Promise<void>((resolve) => (requests.length >= n ? resolve() : waiting.push({ n, resolve })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`, requests, arrived };
}

test(
  'a GitHub API that never answers does not outlive SIGTERM: the action stops as the run does (143)',
  { timeout: 30_000 },
  async (t) => {
    const { url } = await startEmulator(t);
    const github = await silentGitHub(t);
    const run = await runActionBundle(t, {
      action: '.',
      files: { 'release.yml': PIPELINE },
      inputs: {
        pipeline: 'release.yml',
        url,
        username: 'admin',
        password: 'admin',
        'deployment-environment': 'production',
      },
      githubApi: github.url,
      onSpawn: (child) => {
        // SIGTERM once the Deployment is being created, and left unanswered.
        const poll = setInterval(() => {
          if (github.requests.length > 0) {
            clearInterval(poll);
            child.kill('SIGTERM');
          }
        }, 20);
        child.on('exit', () => clearInterval(poll));
      },
    });
    assert.equal(github.requests[0], 'POST /repos/acme/erp/deployments');
    assert.equal(run.code, 143, run.stdout + run.stderr);
  },
);

test(
  'each GitHub API call has a time limit, and a short one once the run is cancelled',
  { timeout: 30_000 },
  async (t) => {
    const { octokitApi } = await import('../../src/action/octokit-api.ts');
    const github = await silentGitHub(t);
    // Each call's time limit, as asked of the timer; it runs out once the call reached the server
    // (which never answers), whatever the machine's speed.
    const asked: number[] = [];
    const timer = (ms: number) => {
      asked.push(ms);
      const out = new AbortController();
      void github
        .arrived(asked.length)
        .then(() => out.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')));
      return out.signal;
    };
    const api = octokitApi(FAKE_GITHUB_TOKEN, 'acme', 'erp', github.url, {
      signal: new AbortController().signal,
      timeoutMs: 300,
      timer,
    });
    await assert.rejects(api.createDeployment({ ref: 'main', environment: 'production', description: 'x' }), /abort/i);
    const cancelled = new AbortController();
    cancelled.abort();
    const late = octokitApi(FAKE_GITHUB_TOKEN, 'acme', 'erp', github.url, {
      signal: cancelled.signal,
      afterCancelMs: 250,
      timer,
    });
    await assert.rejects(
      late.createDeploymentStatus(42, { state: 'error', description: 'cancelled', environment: 'production' }),
      /abort/i,
    );
    assert.deepEqual(
      github.requests,
      ['POST /repos/acme/erp/deployments', 'POST /repos/acme/erp/deployments/42/statuses'],
      'a call after cancellation is still tried, briefly',
    );
    assert.deepEqual(asked, [300, 250], "each call's limit: the run's, then the short one after cancellation");
  },
);

test('dry-run: live posts the preflight as the PR comment (golden): versions now -> after, a gate that would wait, one that fails now; GET requests only', async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.state.alerts.push({
    severity: 'critical',
    code: 'low_free_disk',
    message: 'C: 2% free',
    engineId: 'eng-prod-02',
  });
  const github = await startGitHubApi(t);
  const run = await runActionInProcess(ROOT, {
    files: { 'release.yml': readFileSync('pipelines/demo.yml', 'utf8') },
    inputs: {
      pipeline: 'release.yml',
      url,
      username: 'admin',
      password: 'admin',
      'dry-run': 'live',
      'pr-comment': 'true',
    },
    env: { PROD_TOKEN: 'prod-token', STAGING_TOKEN: 'staging-token' },
    event: { pull_request: { number: 7 } },
    githubApi: github.url,
  });
  assert.equal(run.code, 1, 'a step fails now: the check fails');
  assert.equal(run.outputs.outcome, 'dry-run');
  assert.deepEqual(
    emulator.requests.filter((q) => q.method !== 'GET'),
    [],
    'only GET requests reached the server',
  );
  assert.equal(github.comments.length, 1);
  const body = github.comments[0]!.body;
  assert.match(
    body,
    /\| ✏️ \| 7\/9 \| System update \(target=prod\) \| not sent \(a write\): the Engines of PROD: eng-prod-01 26\.10\.3 -> 26\.11\.0, eng-prod-02 26\.10\.3 -> 26\.11\.0/,
  );
  assert.match(body, /\| ⏳ \| 3\/9 \| Drain user sessions \| would wait: /);
  assert.match(
    body,
    /\| ❌ \| 1\/9 \| No critical alerts \| \*\*fails now\*\*: 1 alert\(s\) at or above critical: critical low_free_disk on eng-prod-02/,
  );
  assert.doesNotMatch(body, /prod-token|staging-token/);
  golden('live-plan-comment.md', body);
});

test("pr-comment of a single-step action: the comment's hidden marker names the target's server and database, never its token or password; a rotated credential updates the same comment", async (t) => {
  const { url } = await startEmulator(t);
  const github = await startGitHubApi(t);
  const target = { url, username: 'admin', password: 'admin', 'pr-comment': 'true', files: '1001' };
  const options = (credentials: Record<string, string>) => ({
    inputs: { ...target, 'target-server': 'prod-db.example.com', 'target-database': 'PROD', ...credentials },
    event: { pull_request: { number: 7 } },
    githubApi: github.url,
  });
  const first = await runActionInProcess(actionDef('vfs-update'), options({ 'target-token': 'prod-token' }));
  assert.equal(first.code, 0, first.failed.join('\n'));
  const second = await runActionInProcess(
    actionDef('vfs-update'),
    options({ 'target-username': 'deploy', 'target-password': 'deploy-pass' }),
  );
  assert.equal(github.comments.length, 1, `one comment for one target: ${second.failed.join('\n')}`);
  const sent = github.calls.map((c) => JSON.stringify(c)).join('\n') + github.comments.map((c) => c.body).join('\n');
  assertClean('the comments sent to GitHub', sent, ['prod-token', 'deploy-pass']);
  assert.match(github.comments[0]!.body, /^<!-- enginectl:vfs-update:prod-db\.example\.com\/PROD -->\n/);
});

/** A GitHub API that creates Deployment 42 and answers its statuses as `statuses` says, in turn (403 when they run out). */
async function statusesGitHub(t: import('node:test').TestContext, statuses: number[]) {
  const { createServer } = await import('node:http');
  const calls: string[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as { state?: string };
      calls.push(`${req.method} ${req.url} ${body.state ?? ''}`.trim());
      const status = req.url === '/repos/acme/erp/deployments' ? 201 : (statuses.shift() ?? 403);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(status === 201 ? { id: 42 } : { message: 'Resource not accessible by integration' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`, calls };
}

test('a Deployment GitHub created but whose in_progress status it refused: said as created, and its final status still recorded', async (t) => {
  const { url } = await startEmulator(t);
  const github = await statusesGitHub(t, [403, 201]);
  const run = await runActionInProcess(ROOT, {
    files: { 'release.yml': PIPELINE },
    inputs: {
      pipeline: 'release.yml',
      url,
      username: 'admin',
      password: 'admin',
      'deployment-environment': 'production',
    },
    githubApi: github.url,
  });
  assert.equal(run.code, 0, run.failed.join('\n'));
  assert.deepEqual(github.calls, [
    'POST /repos/acme/erp/deployments',
    'POST /repos/acme/erp/deployments/42/statuses in_progress',
    'POST /repos/acme/erp/deployments/42/statuses success',
  ]);
  const warnings = run.warnings.map((w) => w.message);
  assert.deepEqual(warnings, [
    'deployment-environment: Deployment 42 to production was created, but its in_progress status could not be recorded: Resource not accessible by integration',
  ]);
  assert.match(run.log.join('\n'), /deployment 42 to production: success/);
});
