// A run killed (SIGKILL) with a site's update at the server, which applies it behind its back; the
// resume's verify reads it applied, so it is not sent again: treated as applied, its end recorded
// with none of the call's inputs (the killed run never ended it). The rollout then parks at a later
// wave for a decision, and the continue after it must not send that update either. Before, the
// continue read the end's empty inputs as "its inputs changed since the journal's run" and sent the
// update a second time (journal/resume.ts).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cleanEnv } from '../helpers/cli.ts';
import { gatewayInFront } from '../helpers/gateway.ts';
import { until } from '../helpers/timing.ts';
import { PARKED, parkFleet } from './helpers.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'src', 'cli', 'bin.ts');
const UPDATE = '/api/devops/v1/update/system';

test('a write verify read applied after a kill is not sent again by the continue after a later park', async (t) => {
  let hold: { arrived: () => void; released: Promise<void> } | undefined;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => {
    hold = { arrived: resolve, released: new Promise<void>((go) => (release = go)) };
  });
  t.after(() => release());
  const f = await parkFleet(
    t,
    3,
    '  over: site\n  waves: [[site-001], [site-002], rest]\n  max-failures: 0\n  on-failure: decide',
    '',
    '',
    {
      front: (url) =>
        gatewayInFront(
          t,
          url,
          () => undefined,
          async (method, path) => {
            const h = hold;
            if (!h || method !== 'POST' || path !== `/sites/site-002${UPDATE}`) return;
            hold = undefined;
            h.arrived();
            await h.released;
          },
        ),
    },
  );
  // site-003's update refused once: the rollout parks at wave 3 for a decision.
  f.sites.faults.add({ method: 'POST', path: UPDATE, status: 409, times: 1, site: 'site-003' });
  const updates = (site: string) =>
    (f.sites.started().get(site)?.requests ?? []).filter((r) => r.method === 'POST' && r.path === UPDATE);
  const applied = (site: string) => updates(site).filter((r) => r.applied).length;

  // The first run, a process of its own, killed with site-002's update at the server.
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, 'run', f.file, '--store', f.storeUrl], {
    cwd: ROOT,
    env: cleanEnv(f.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const closed = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
  t.after(() => void child.kill('SIGKILL'));
  await Promise.race([reached, closed.then(() => assert.fail(`the run ended before the held update: ${output}`))]);
  child.kill('SIGKILL');
  assert.equal(await closed, 'SIGKILL');
  release();
  await until(() => applied('site-002') === 1);
  const id = /^run: (\S+) in /m.exec(output)?.[1];
  assert.ok(id, output);

  // The killed runner's hold given up; past the monitoring refresh, the resume's verify reads the update applied.
  const released = await f.cli(['lease', 'release', '--store', f.storeUrl, `run.${id}`, '--reason', 'runner killed']);
  assert.equal(released.code, 0, released.stdout + released.stderr);
  await f.clock.sleep(3 * 60_000, new AbortController().signal);
  const resumed = await f.run('--resume', id, '--in-doubt', 'verify');
  assert.equal(resumed.code, PARKED, resumed.stdout + resumed.stderr);
  assert.match(resumed.stdout, /^verify: "Update site-002": applied: /m);
  assert.match(resumed.stdout, /parked: waiting for a decision on wave 3/);

  const retry = await f.decide(id, '--retry', 'site-003', '--reason', 'refused, nothing applied');
  assert.equal(retry.code, 0, retry.stdout + retry.stderr);
  const continued = await f.run('--continue', id);
  assert.equal(continued.code, 0, continued.stdout + continued.stderr);
  assert.equal(applied('site-002'), 1, `site-002's update is not sent again\n${continued.stdout}${continued.stderr}`);
  assert.equal(updates('site-002').length, 1);
  assert.doesNotMatch(continued.stdout, /its inputs changed/);
  assert.equal(applied('site-003'), 1);
});
