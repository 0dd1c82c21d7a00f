// A parked run through the GitHub Action (the root action in this process, runAction with a
// recording toolkit): the step is not failed and its outcome output says parked; input continue
// goes on with it in a later job, parked again while the bake lasts, to success after it; every
// write reaches its site once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { ExitCode } from '../../src/errors.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';
import { startDeploymentsGitHub, startGitHubApi } from '../helpers/action.ts';
import { parkFleet } from './helpers.ts';
import { readFileSync } from 'node:fs';

const ROOT = actionDef('enginectl');
const HOUR = 3_600_000;

test('the action: a parked run sets outcome parked without failing the step; input continue goes on after the bake', async (t) => {
  const f = await parkFleet(t, 3, `  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }`);
  const job = (inputs: Record<string, string>) =>
    runActionInProcess(ROOT, {
      files: { 'fleet.yml': readFileSync(f.file, 'utf8') },
      inputs: { pipeline: 'fleet.yml', store: f.storeUrl, ...inputs },
      env: f.env,
      clock: f.clock,
    });
  const first = await job({});
  assert.equal(first.code, ExitCode.ok, first.failed.join('\n'));
  assert.deepEqual(first.failed, [], 'not failed');
  assert.equal(first.outputs.outcome, 'parked');
  assert.ok(first.log.some((l) => /parked: waiting for the 12h bake after wave 1/.test(l)));
  const id = first.outputs['run-id']!;

  const early = await job({ continue: id });
  assert.equal(early.outputs.outcome, 'parked', 'the bake is not over: parked again');
  assert.deepEqual(early.failed, []);

  await f.clock.sleep(12 * HOUR, new AbortController().signal);
  const done = await job({ continue: id });
  assert.equal(done.code, ExitCode.ok, done.failed.join('\n'));
  assert.equal(done.outputs.outcome, 'success');
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-002': 1, 'site-003': 1 });
});

test("the action's Deployment and summary of a parked run: the Deployment stays in_progress saying what it waits for (not success), the summary heads 'parked', never 'success' nor 'continue-on-error let them pass'; the job that goes on ends it success", async (t) => {
  const f = await parkFleet(t, 3, `  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }`);
  const github = await startGitHubApi(t);
  const job = (inputs: Record<string, string>) =>
    runActionInProcess(ROOT, {
      files: { 'fleet.yml': readFileSync(f.file, 'utf8') },
      inputs: { pipeline: 'fleet.yml', store: f.storeUrl, 'deployment-environment': 'production', ...inputs },
      env: f.env,
      clock: f.clock,
      githubApi: github.url,
    });
  const first = await job({});
  assert.equal(first.outputs.outcome, 'parked');
  const states = () => github.calls.filter((c) => c.path.endsWith('/statuses')).map((c) => c.body.state);
  assert.deepEqual(states(), ['in_progress', 'in_progress']);
  const last = github.calls.at(-1)!;
  assert.match(String(last.body.description), /parked: waiting for the 12h bake after wave 1/);
  assert.match(first.summary, /^## ⏸️ .*: parked$/m);
  assert.doesNotMatch(first.summary, /: success$|continue-on-error let them pass/m);
  await f.clock.sleep(12 * HOUR, new AbortController().signal);
  const done = await job({ continue: first.outputs['run-id']! });
  assert.equal(done.outputs.outcome, 'success');
  assert.equal(states().at(-1), 'success');
});

test('the job that goes on with a parked run ends the Deployment the parked job started, not a new one: none is left in_progress', async (t) => {
  const f = await parkFleet(t, 3, `  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }`);
  const github = await startDeploymentsGitHub(t);
  const job = (inputs: Record<string, string>) =>
    runActionInProcess(ROOT, {
      files: { 'fleet.yml': readFileSync(f.file, 'utf8') },
      inputs: { pipeline: 'fleet.yml', store: f.storeUrl, 'deployment-environment': 'production', ...inputs },
      env: f.env,
      clock: f.clock,
      githubApi: github.url,
    });
  // Another run's Deployment to the same environment, made after the parked one: left alone.
  const first = await job({});
  assert.equal(first.outputs.outcome, 'parked');
  const other = await job({});
  assert.equal(other.outputs.outcome, 'parked');
  await f.clock.sleep(12 * HOUR, new AbortController().signal);
  const done = await job({ continue: first.outputs['run-id']! });
  assert.equal(done.outputs.outcome, 'success', done.failed.join('\n'));
  assert.deepEqual(
    github.deployments.map((d) => [d.id, d.states]),
    [
      [100, ['in_progress', 'in_progress', 'in_progress', 'success']],
      [101, ['in_progress', 'in_progress']],
    ],
  );
  assert.ok(done.log.includes('deployment 100 to production: success'), done.log.join('\n'));
});

test('the job that goes on with a run parked by an earlier enginectl, whose Deployment names no run, says it found none of the run: a new one is recorded, the one left in_progress is not ended silently', async (t) => {
  const f = await parkFleet(t, 3, `  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }`);
  const github = await startDeploymentsGitHub(t);
  const job = (inputs: Record<string, string>) =>
    runActionInProcess(ROOT, {
      files: { 'fleet.yml': readFileSync(f.file, 'utf8') },
      inputs: { pipeline: 'fleet.yml', store: f.storeUrl, 'deployment-environment': 'production', ...inputs },
      env: f.env,
      clock: f.clock,
      githubApi: github.url,
    });
  const first = await job({});
  assert.equal(first.outputs.outcome, 'parked');
  // The parked job's action was of an enginectl that named no run in its Deployment's payload.
  github.deployments[0]!.payload = null;
  await f.clock.sleep(12 * HOUR, new AbortController().signal);
  const done = await job({ continue: first.outputs['run-id']! });
  assert.equal(done.outputs.outcome, 'success', done.failed.join('\n'));
  assert.deepEqual(
    github.deployments.map((d) => [d.id, d.states]),
    [
      [100, ['in_progress', 'in_progress']],
      [101, ['in_progress', 'success']],
    ],
  );
  const warned = done.warnings.map((w) => w.message).join('\n');
  assert.match(
    warned,
    new RegExp(
      `deployment-environment: no Deployment of environment production names run ${first.outputs['run-id']} \\(the job that began it recorded none, or ran an earlier enginectl, whose Deployments name no run\\): a new one is recorded \\(101\\); one an earlier job of the run left in progress stays so`,
    ),
    warned,
  );
});
