// A write in doubt the operator decided to send again (run --resume RUN --in-doubt retry), admitted
// into its window, whose snapshot read before it leaves takes so long that it no longer fits: the
// leave gate (runner/leave-gate.ts) parks the run, "the decision standing, not acted on", as a
// refusal at admission leaves it. The instance's start record, written before the snapshot, wipes
// the decision from the journal (journal/read.ts: a start clears it), so the continue at the next
// window is refused for a decision the operator already gave, and nothing is sent.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { serve, Sites } from '../../src/emulator/index.ts';
import { gatewayInFront } from '../helpers/gateway.ts';
import { runCli } from '../helpers/cli.ts';
import { PARKED, runIdOf } from './helpers.ts';

const MINUTE = 60_000;
const never = new AbortController().signal;

test('a retried write in doubt parked as it would leave keeps its decision: the continue at the next window sends it', async (t) => {
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
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-leave-doubt-'));
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
  assert.notEqual(first.code, 0, said(first));
  const id = runIdOf(first.stdout)!;
  assert.ok(id, said(first));
  // 02:50: the operator checked and decided to send it again; it fits (1h06m to 03:56), its read takes until 03:00.
  await clock.sleep(Date.parse('2026-03-10T02:50:00Z') - clock.now(), never);
  slowRead = true;
  const resumed = await run('--resume', id, '--in-doubt', 'retry');
  assert.equal(resumed.code, PARKED, said(resumed));
  assert.equal(sent.length, 1, `sent past its window: ${said(resumed)}`);
  // The next night, the continue acts on the decision that stands: the create is sent again, once.
  await clock.sleep(Date.parse('2026-03-11T02:01:00Z') - clock.now(), never);
  const next = await run('--continue', runIdOf(resumed.stdout) ?? id);
  assert.equal(next.code, 0, said(next));
  assert.equal(sent.length, 2, said(next));
});
