// The fleet split across jobs as the documented workflow runs it on GitHub: the root action once
// per site (only: site=X, that site's secrets only), then a final job in merge mode over the
// reports the jobs uploaded: one summary, one PR comment, one outcome for the fleet. Each job runs
// the root action in this process (runAction, a recording toolkit, the real Octokit client against
// a local GitHub API) on a runner of its own.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { startGitHubApi } from '../helpers/action.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { SITES, siteSecrets, startSites } from '../helpers/sites.ts';

const ROOT = actionDef('enginectl');

const FILES = {
  'pipelines/three-site-release.yml': readFileSync('pipelines/three-site-release.yml', 'utf8'),
  'pipelines/inventory/sites.yml': readFileSync('pipelines/inventory/sites.yml', 'utf8'),
};

test('a job per site with its own secrets, then the merge job: one summary with a row per site, one PR comment, "no report" for a job that died', async (t) => {
  const { urls } = await startSites(t);
  const github = await startGitHubApi(t);
  const event = { pull_request: { number: 9 } };
  // What download-artifact leaves: one directory per job's artifact.
  const artifacts = mkdtempSync(join(tmpdir(), 'enginectl-artifacts-'));
  for (const site of SITES) {
    const job = await runActionInProcess(ROOT, {
      files: FILES,
      inputs: { pipeline: 'pipelines/three-site-release.yml', only: `site=${site}` },
      env: siteSecrets(site, urls[site]),
      event,
      githubApi: github.url,
    });
    assert.equal(job.code, 0, job.failed.join('\n'));
    assert.match(job.summary, new RegExp(`limited to: site=${site}`));
    mkdirSync(join(artifacts, `enginectl-report-${site}`));
    copyFileSync(job.outputs.report!, join(artifacts, `enginectl-report-${site}`, 'report.json'));
  }
  const files = Object.fromEntries(
    SITES.map((site) => [
      `reports/enginectl-report-${site}/report.json`,
      readFileSync(join(artifacts, `enginectl-report-${site}`, 'report.json'), 'utf8'),
    ]),
  );
  const merge = await runActionInProcess(ROOT, {
    files,
    inputs: { merge: 'reports', 'pr-comment': 'true' },
    event,
    githubApi: github.url,
  });
  assert.equal(merge.code, 0, merge.failed.join('\n'));
  assert.equal(merge.outputs.outcome, 'success');
  for (const site of SITES)
    assert.match(
      merge.summary,
      new RegExp(`\\| ✅ \\| site=${site} \\| success \\| 4 step run\\(s\\): 4 succeeded \\|`),
    );
  assert.match(merge.summary, /merged from 3 job report\(s\)/);
  const merged = JSON.parse(readFileSync(merge.outputs.report!, 'utf8')) as {
    counts: { total: number };
    merged: { noReport: string[] };
  };
  assert.equal(merged.counts.total, 10);
  assert.equal(github.comments.length, 1, 'the merge job writes the one comment of the fleet');
  assert.match(
    github.comments[0]!.body,
    /^<!-- enginectl:pipelines\/three-site-release\.yml -->\n## ✅ Release 2026\.11 at three sites: success/,
  );

  // The prod job died before uploading its report: the fleet fails, and says which site has none.
  delete files['reports/enginectl-report-prod/report.json'];
  const partial = await runActionInProcess(ROOT, {
    files,
    inputs: { merge: 'reports', 'pr-comment': 'true' },
    event,
    githubApi: github.url,
  });
  assert.equal(partial.code, 1, partial.failed.join('\n'));
  assert.equal(partial.outputs.outcome, 'failure');
  assert.match(partial.summary, /\| ⛔ \| site=prod \| no report \|/);
  assert.match(partial.failed.join('\n'), /no report from site=prod/);
  assert.equal(github.comments.length, 1, 'the same comment, updated');
  assert.match(github.comments[0]!.body, /## ❌ Release 2026\.11 at three sites: failure/);
});

test('merge mode reads the journals in the directory too: a job that uploaded its journal (*.journal.jsonl) has its row; a journal beside its own report counts once', async (t) => {
  const { urls } = await startSites(t);
  const files: Record<string, string> = { ...FILES };
  for (const site of SITES) {
    const job = await runActionInProcess(ROOT, {
      files: FILES,
      inputs: { pipeline: 'pipelines/three-site-release.yml', only: `site=${site}` },
      env: siteSecrets(site, urls[site]),
    });
    assert.equal(job.code, 0, job.failed.join('\n'));
    const journal = job.outputs.journal!;
    assert.match(journal, /\.journal\.jsonl$/);
    const name = basename(journal);
    // test: the journal alone (its job died before the report was uploaded); staging: both, as a
    // job uploading its whole report directory leaves them; prod: the JSON report alone.
    if (site !== 'prod') files[`reports/${site}/${name}`] = readFileSync(journal, 'utf8');
    if (site !== 'test')
      files[`reports/${site}/${name.replace(/\.journal\.jsonl$/, '.json')}`] = readFileSync(
        job.outputs.report!,
        'utf8',
      );
  }
  const merge = await runActionInProcess(ROOT, { files, inputs: { merge: 'reports' } });
  assert.equal(merge.code, 0, merge.failed.join('\n'));
  assert.equal(merge.outputs.outcome, 'success');
  for (const site of SITES)
    assert.match(
      merge.summary,
      new RegExp(`\\| ✅ \\| site=${site} \\| success \\| 4 step run\\(s\\): 4 succeeded \\|`),
    );
  assert.match(merge.summary, /merged from 3 job report\(s\)/);
  assert.doesNotMatch(merge.summary, /no report/);
});

test('merge mode: a directory without a report, or a file that is none, is invalid input (exit 2)', async () => {
  const empty = await runActionInProcess(ROOT, {
    files: { 'reports/notes.txt': 'x' },
    inputs: { merge: 'reports' },
  });
  assert.equal(empty.code, 2, empty.failed.join('\n'));
  assert.match(empty.failed.join('\n'), /input merge: reports holds no JSON report/);
  const bad = await runActionInProcess(ROOT, {
    files: { 'reports/a.json': '{"x": 1}' },
    inputs: { merge: 'reports' },
  });
  assert.equal(bad.code, 2, bad.failed.join('\n'));
  assert.match(bad.failed.join('\n'), /a\.json is not a JSON report of this enginectl/);
});

test('merge mode refuses the inputs of a run it would not read (pipeline, vars, only, skip, dry-run): exit 2, naming them', async () => {
  for (const [name, value] of [
    ['pipeline', 'pipelines/release.yml'],
    ['vars', 'release=9.9'],
    ['only', 'target=nowhere'],
    ['skip', 'site=site-1'],
    ['dry-run', 'true'],
  ] as const) {
    const run = await runActionInProcess(ROOT, {
      files: { 'reports/notes.txt': 'x' },
      inputs: { merge: 'reports', [name]: value },
    });
    assert.equal(run.code, 2, `${name}: ${run.failed.join('\n')}`);
    assert.match(
      run.failed.join('\n'),
      new RegExp(`input merge: merges the reports of jobs that ran; it runs nothing, so input ${name} is not read`),
    );
  }
});

test('merge mode refuses every other input of a run it would not read (a Deployment, a journal, a store, a lease, an override, the server): exit 2, naming it, nothing recorded', async (t) => {
  const github = await startGitHubApi(t);
  for (const [name, value] of [
    ['deployment-environment', 'production'],
    ['journal', 'release.journal.jsonl'],
    ['store', 'file:///tmp/enginectl-store'],
    ['lease', 'fleet'],
    ['continue', 'run-1'],
    ['in-doubt', 'skip'],
    ['continue-rollout', 'true'],
    ['override-freeze', 'true'],
    ['override-reason', 'INC-1'],
    ['url', 'https://erp.example.com'],
    ['username', 'deploy'],
    ['password', 'p4ss'],
  ] as const) {
    const run = await runActionInProcess(ROOT, {
      files: { 'reports/notes.txt': 'x' },
      inputs: { merge: 'reports', [name]: value },
      githubApi: github.url,
    });
    assert.equal(run.code, 2, `${name}: ${run.failed.join('\n')}`);
    assert.match(
      run.failed.join('\n'),
      new RegExp(`input merge: merges the reports of jobs that ran; it runs nothing, so input ${name} is not read`),
    );
  }
  assert.deepEqual(github.calls, [], 'no Deployment recorded');
});

test("merge mode names a job that ran every instance by its report's path in the workspace, not the runner's absolute path", async (t) => {
  const { urls } = await startSites(t);
  const files: Record<string, string> = { ...FILES };
  const env = Object.assign({}, ...SITES.map((site) => siteSecrets(site, urls[site]))) as Record<string, string>;
  const job = await runActionInProcess(ROOT, {
    files: FILES,
    inputs: { pipeline: 'pipelines/three-site-release.yml' },
    env,
  });
  assert.equal(job.code, 0, job.failed.join('\n'));
  files['reports/all/whole.json'] = readFileSync(job.outputs.report!, 'utf8');
  const merge = await runActionInProcess(ROOT, { files, inputs: { merge: 'reports' } });
  assert.equal(merge.code, 0, merge.failed.join('\n'));
  assert.match(merge.summary, /^\| ✅ \| reports\/all\/whole\.json \| success \|/m);
});

test('merge mode: a fleet whose only job left a continue-on-error write in doubt is logged "in doubt", not "success", as its summary heads it', async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', gateway: 504, times: 1 });
  const pipeline = `version: 1
name: Doubtful
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - uses: update/vfs
    continue-on-error: true
    with: { target: prod, files: [1001] }
`;
  const job = await runActionInProcess(ROOT, {
    files: { 'pipelines/doubt.yml': pipeline },
    inputs: { pipeline: 'pipelines/doubt.yml', url, username: 'admin', password: 'admin' },
  });
  assert.equal(job.code, 1, 'a doubt fails the job');
  const merge = await runActionInProcess(ROOT, {
    files: { 'reports/doubt.json': readFileSync(job.outputs.report!, 'utf8') },
    inputs: { merge: 'reports' },
  });
  assert.match(merge.log.join('\n'), /^✖ reports\/doubt\.json: in doubt \(1 step run\(s\): 1 failed, 1 in doubt\)$/m);
  assert.match(merge.log.join('\n'), /^fleet "Doubtful": in doubt \(/m);
  assert.match(merge.summary, /^\| ⚠️ \| reports\/doubt\.json \| in doubt \|/m);
  assert.match(merge.summary, /^## ⚠️ Doubtful: in doubt/m);
});

test('merge mode reads a boolean input of a run given as its default in another spelling (False, FALSE) as the default: not refused', async () => {
  for (const [name, value] of [
    ['dry-run', 'False'],
    ['override-freeze', 'FALSE'],
    ['continue-rollout', 'False'],
  ] as const) {
    const run = await runActionInProcess(ROOT, {
      files: { 'reports/notes.txt': 'x' },
      inputs: { merge: 'reports', [name]: value },
    });
    // Past the inputs: the reports are read, and this directory holds none.
    assert.match(run.failed.join('\n'), /input merge: reports holds no JSON report/, `${name}: ${value}`);
  }
});

// The merge job's webhook follows the job's cancel as a run's does: a POST the webhook holds is cut
// when the job is cancelled, not waited on until its own limit (10 s) with the job's grace running out.
test("merge mode: a cancel while the webhook holds the report's POST cuts it at once: told as interrupted, not as no answer in time", async (t) => {
  const { urls } = await startSites(t);
  const job = await runActionInProcess(ROOT, {
    files: FILES,
    inputs: { pipeline: 'pipelines/three-site-release.yml', only: 'site=test' },
    env: siteSecrets('test', urls.test),
  });
  assert.equal(job.code, 0, job.failed.join('\n'));
  const stop = new AbortController();
  const held: ServerResponse[] = [];
  const hook = createServer((req, res) => {
    held.push(res);
    req.resume();
    // The POST is in: the job is cancelled now; the webhook never answers until the test ends.
    stop.abort(new Error('received SIGTERM'));
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  t.after(() => (held.forEach((r) => r.destroy()), hook.closeAllConnections(), hook.close()));
  const merge = await runActionInProcess(ROOT, {
    files: { 'reports/test/report.json': readFileSync(job.outputs.report!, 'utf8') },
    inputs: { merge: 'reports', webhook: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook` },
    signal: stop.signal,
  });
  assert.equal(held.length, 1, 'the webhook got the POST');
  const warned = merge.warnings.map((w) => w.message).join('\n');
  assert.match(warned, /the report could not be posted \(interrupted\)/, warned);
});
