// A write whose fate is unknown is in doubt whatever the step's own check says: an api/request
// DELETE whose expect-status admits 404 (an idempotent delete) and that a gateway answered 404 with
// its HTML page has not been told what the server did. It fails in doubt (IN_DOUBT), the run stops
// before the next write as for any doubt, and every report says so. The API's own 404 (its JSON
// error) is the server's word that the entity is not there: that one the step's check lets pass.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { encodeLine } from '../../src/journal/frame.ts';

const ENTITY = '/api/classes/v1/classes/12/entities/2001';
const ENTITIES = '/api/classes/v1/classes/12/entities';

const pipeline = (options: { continueOnError?: boolean; path?: string } = {}) => `version: 1
name: Expect
steps:
  - id: del
    uses: api/request${options.continueOnError ? '\n    continue-on-error: true' : ''}
    with: { method: DELETE, path: ${options.path ?? ENTITY}, expect-status: [200, 204, 404] }
  - id: after
    uses: api/request
    with: { method: POST, path: ${ENTITIES}, body: [{ iname: x1, ifullname: X One }] }
`;

type Step = {
  id: string;
  outcome: string;
  inDoubt: { method: string; path: string; status?: number } | null;
  error: { code: string; message: string; hint?: string } | null;
};

async function setup(t: TestContext, text: string) {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-expect-doubt-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, text);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const journal = join(dir, 'run.journal.jsonl');
  const at = (suffix: string) => `${journal}${suffix}`;
  const reports = ['--report-json', at('.json'), '--junit', at('.xml'), '--summary', at('.md'), '--html', at('.html')];
  const steps = (path: string) => (JSON.parse(readFileSync(path, 'utf8')) as { steps: Step[] }).steps;
  const posts = () => emulator.requests.filter((r) => r.method === 'POST' && r.path === ENTITIES).length;
  const deletes = () => emulator.requests.filter((r) => r.method === 'DELETE' && r.path === ENTITY).length;
  return { emulator, file, env, journal, at, reports, steps, posts, deletes };
}

test("a DELETE whose expect-status admits 404, answered 404 by a gateway's page: in doubt, not a success; the run stops before the next write and every report says in doubt, naming no continue-on-error", async (t) => {
  const s = await setup(t, pipeline());
  s.emulator.faults.add({ method: 'DELETE', path: ENTITY, gateway: 404, times: 1 });
  const run = await runCli(['run', s.file, '--journal', s.journal, ...s.reports], { env: s.env });
  const out = run.stdout + run.stderr;
  assert.equal(run.code, 1, out);
  assert.equal(s.posts(), 0, 'no later step sends anything');
  assert.match(run.stdout, /^✖ \[1\/2\] API request /m, out);
  assert.match(
    run.stdout,
    /^ {4}in doubt: DELETE \/api\/classes\/v1\/classes\/12\/entities\/2001 was sent and was answered 404, which does not say what the server did; the server may have applied it$/m,
  );
  assert.match(run.stdout, /^ {4}code: IN_DOUBT$/m);
  assert.match(run.stdout, /^pipeline "Expect": failure in /m);
  assert.doesNotMatch(out, /continue-on-error/, 'the pipeline has none');

  const [del, after] = s.steps(s.at('.json'));
  assert.equal(del!.outcome, 'failure');
  assert.equal(del!.error?.code, 'IN_DOUBT');
  assert.match(del!.error!.message, /answered 404/);
  assert.match(del!.error!.hint ?? '', /--in-doubt skip/);
  assert.deepEqual(del!.inDoubt, { method: 'DELETE', path: ENTITY, status: 404 });
  assert.equal(after!.outcome, 'skipped');

  const junit = readFileSync(s.at('.xml'), 'utf8');
  assert.match(junit, /<testcase name="del"[^>]*>\s*<failure type="IN_DOUBT"/);
  const summary = readFileSync(s.at('.md'), 'utf8');
  assert.match(summary, /^- \*\*API request\*\* \(`api\/request`\): .*answered 404/m);
  assert.doesNotMatch(summary, /\(`api\/request`\): success/);
  assert.doesNotMatch(summary, /continue-on-error/);
  const html = readFileSync(s.at('.html'), 'utf8');
  assert.match(html, /answered 404/);
  assert.doesNotMatch(html, /continue-on-error/);

  // Read back from its journal: the same.
  const report = await runCli(['report', s.journal, '--report-json', s.at('.report.json'), '--junit', s.at('.r.xml')]);
  assert.equal(report.code, 1, report.stdout + report.stderr);
  assert.doesNotMatch(report.stdout + report.stderr, /continue-on-error/);
  const [read] = s.steps(s.at('.report.json'));
  assert.equal(read!.outcome, 'failure');
  assert.equal(read!.error?.code, 'IN_DOUBT');
  assert.match(readFileSync(s.at('.r.xml'), 'utf8'), /<failure type="IN_DOUBT"/);

  // A journal an earlier version wrote ended such a step a success, its doubt kept: report of it
  // exits 1 and names no continue-on-error either (the pipeline has none).
  const earlier = s.at('.earlier.jsonl');
  writeFileSync(
    earlier,
    readFileSync(s.journal, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const { crc: _crc, ...r } = JSON.parse(l) as { crc: unknown; t: string; run?: Record<string, unknown> };
        if (r.t === 'end' && r.run?.id === 'del') {
          r.run.outcome = 'success';
          delete r.run.error;
        }
        return encodeLine(r);
      })
      .join(''),
  );
  const old = await runCli(['report', earlier]);
  assert.equal(old.code, 1, old.stdout + old.stderr);
  assert.match(old.stdout, /^✔ \[1\] API request /m, 'read as the earlier run recorded it');
  assert.match(old.stdout, /^✖ 1 step run\(s\) left a write in doubt: /m);
  assert.doesNotMatch(old.stdout + old.stderr, /continue-on-error/);

  // A resume needs the operator's word; treated as applied, the run goes on to the next write, the DELETE not sent again.
  const resumed = await runCli(['run', s.file, '--resume', s.journal], { env: s.env });
  assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
  assert.equal(s.posts(), 0);
  const skipped = await runCli(['run', s.file, '--resume', s.journal, '--in-doubt', 'skip'], { env: s.env });
  assert.equal(skipped.code, 0, skipped.stdout + skipped.stderr);
  assert.equal(s.deletes(), 1);
  assert.equal(s.posts(), 1);
});

test("the API's own 404 (its JSON error) that expect-status admits says the entity is not there: a success, not in doubt, and the run goes on", async (t) => {
  const s = await setup(t, pipeline({ path: '/api/classes/v1/classes/12/entities/9999' }));
  const run = await runCli(['run', s.file, '--journal', s.journal, ...s.reports], { env: s.env });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const [del, after] = s.steps(s.at('.json'));
  assert.equal(del!.outcome, 'success');
  assert.equal(del!.inDoubt, null);
  assert.equal(after!.outcome, 'success');
  assert.equal(s.posts(), 1);
});

test('under continue-on-error the same DELETE fails in doubt: the run goes on, exits 1, and only then is continue-on-error named', async (t) => {
  const s = await setup(t, pipeline({ continueOnError: true }));
  s.emulator.faults.add({ method: 'DELETE', path: ENTITY, gateway: 404, times: 1 });
  const run = await runCli(['run', s.file, '--journal', s.journal, ...s.reports], { env: s.env });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const [del, after] = s.steps(s.at('.json'));
  assert.equal(del!.outcome, 'failure');
  assert.equal(del!.error?.code, 'IN_DOUBT');
  assert.equal(after!.outcome, 'success', 'continue-on-error lets the run go on');
  assert.equal(s.posts(), 1);
  assert.match(
    run.stdout,
    /^✖ 1 step run\(s\) left a write in doubt: continue-on-error lets a failure pass, not a doubt;/m,
  );
});
