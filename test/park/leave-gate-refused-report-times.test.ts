// A write in doubt the operator decided to send again (run --resume RUN --in-doubt retry), parked
// by the leave gate (runner/leave-gate.ts) after a 10-minute snapshot read: its journal reads it
// back as refused at its admission (journal/read.ts), its call in doubt and the decision standing.
// The report rebuilt from the journal (report --store --run) times the instance by its start
// record (release.ts journalTimed): the attempt this run made, from 02:50 to 03:00. Restoring the
// instance as it stood before that start also brings back the first run's start time, so the
// report says the step started at 02:00 in the first run and ran for an hour, across both runs.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { serve, Sites } from '../../src/emulator/index.ts';
import type { Report } from '../../src/report/index.ts';
import { gatewayInFront } from '../helpers/gateway.ts';
import { runCli } from '../helpers/cli.ts';
import { PARKED, runIdOf } from './helpers.ts';

const MINUTE = 60_000;
const never = new AbortController().signal;

test("the journal's report times a retried write in doubt parked as it would leave by this run's start, not the first run's", async (t) => {
  const clock = simulatedClock(Date.parse('2026-03-10T02:00:00Z'));
  const sites = new Sites({ now: clock.now });
  const server = await serve(sites, { port: 0 });
  t.after(() => server.close());
  const sent: string[] = [];
  let slowRead = false;
  // The first create is answered by the gateway's 504 page (applied, in doubt); while `slowRead`,
  // a read of the class answers 10 minutes after it is asked (on the clock the run reads).
  const front = await gatewayInFront(
    t,
    server.url,
    (method) => (method === 'POST' && sent.length === 1 ? 504 : undefined),
    async (method, path) => {
      if (method === 'GET' && slowRead) {
        slowRead = false;
        await clock.sleep(10 * MINUTE, never);
      }
      if (method === 'POST') sent.push(`${new Date(clock.now()).toISOString()} ${path}`);
    },
  );
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-leave-times-'));
  const store = join(dir, 'store');
  mkdirSync(store);
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    `version: 1
servers:
  prod: { url: "${front}/sites/prod", username: admin, password: admin }
windows:
  night: { cron: '0 2 * * *', duration: 2h, zone: UTC }
steps:
  - id: create
    uses: classes/create
    server: prod
    expected: 60m
    with: { class: 30, fields: { iname: REL-1, ioutcome: started } }
`,
  );
  const run = (...args: string[]) => runCli(['run', file, '--store', `file://${store}`, ...args], { clock });
  const said = (r: { code: number | null; stdout: string; stderr: string }) =>
    `exit ${r.code}\n${r.stdout}${r.stderr}\nsent:\n${sent.join('\n')}`;
  const first = await run();
  assert.equal(sent.length, 1, said(first));
  const id = runIdOf(first.stdout)!;
  assert.ok(id, said(first));
  // 02:50: the operator decided to send it again; it fits (1h06m to 03:56), its read takes until 03:00.
  const resumedAt = Date.parse('2026-03-10T02:50:00Z');
  await clock.sleep(resumedAt - clock.now(), never);
  slowRead = true;
  const resumed = await run('--resume', id, '--in-doubt', 'retry');
  assert.equal(resumed.code, PARKED, said(resumed));
  assert.equal(sent.length, 1, said(resumed));
  const json = join(dir, 'again.json');
  const again = await runCli(
    ['report', '--store', `file://${store}`, '--run', runIdOf(resumed.stdout) ?? id, '--report-json', json],
    { clock },
  );
  const step = (JSON.parse(readFileSync(json, 'utf8')) as Report).steps[0]!;
  // Its doubt and the decision stand (45cf7ec1): what the fix was for.
  assert.equal(step.error?.code, 'WINDOW_PARKED', said(again));
  assert.equal(step.inDoubt?.status, 504, said(again));
  assert.equal(step.decision?.decision, 'retry', said(again));
  // Timed as this run's attempt: started at its start (02:50), for its 10-minute read.
  assert.ok(
    step.startedAt !== null && Date.parse(step.startedAt) >= resumedAt,
    `the report rebuilt from the journal says the step started at ${step.startedAt}, in the first run, and took ${step.durationMs} ms (the resume started it at 02:50):\n${again.stdout}`,
  );
  assert.ok((step.durationMs ?? 0) <= 11 * MINUTE, `took ${step.durationMs} ms:\n${again.stdout}`);
});
