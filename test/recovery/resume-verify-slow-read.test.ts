// A resume's verify (`run --resume --in-doubt verify|verify-and-retry`) reads "since the call" and
// each answer's Date on a clock that goes on while it reads, as `enginectl verify` does: a resume
// whose read reaches the server minutes after it began (a slow gateway, retries, a long queue of
// reads) must not take the server's clock for one far off this machine's, which a journal written
// before the server's clock was kept with each write (an earlier enginectl) would turn into
// "cannot tell", asking an operator for what verify can decide.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { encodeLine } from '../../src/journal/frame.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { gatewayInFront } from '../helpers/gateway.ts';

const PIPELINE = `version: 1
name: Slow read
steps:
  - uses: classes/update
    with: { class: 12, id: 2001, fields: { iname: x } }
    longest: 1m
`;
const ENTITY = '/api/classes/v1/classes/12/entities/2001';
const MINUTE = 60_000;
const never = new AbortController().signal;

/** The journal as an enginectl that kept no clock of the server with a write wrote it. */
function withoutServerClock(journal: string): string {
  const records = readFileSync(journal, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const { crc: _crc, clock: _clock, ...r } = JSON.parse(l) as Record<string, unknown>;
      return r;
    });
  const to = `${journal}.old.jsonl`;
  writeFileSync(to, records.map((r) => encodeLine(r)).join(''));
  return to;
}

const CASES = [
  { mode: 'verify-and-retry', journal: "an earlier enginectl's journal", older: true },
  { mode: 'verify', journal: "an earlier enginectl's journal", older: true },
  // One that kept the server's clock reads the same verdict, but named this machine's clock 2m behind it.
  { mode: 'verify-and-retry', journal: 'a journal that kept the server clock', older: false },
] as const;

for (const { mode, journal: which, older } of CASES)
  test(`run --resume --in-doubt ${mode} of ${which}, whose read of the target reaches the server 2 minutes after the resume began, reads it not applied (past longest:), naming no clock off the server's`, async (t) => {
    // One clock for this machine and the server (the emulator's): in step, as NTP keeps them.
    const clock = simulatedClock();
    const { url: server, emulator } = await startEmulator(t, { now: clock.now });
    // A gateway in front of the server that holds the next read of the target this long, on that clock.
    let held = 0;
    const url = await gatewayInFront(
      t,
      server,
      () => undefined,
      async (method, path) => {
        if (method !== 'GET' || path !== ENTITY || held === 0) return;
        const ms = held;
        held = 0;
        await clock.sleep(ms, never);
      },
    );
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-resume-slow-read-'));
    const file = join(dir, 'release.yml');
    writeFileSync(file, PIPELINE);
    const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
    const journal = join(dir, 'run.journal.jsonl');
    // The connection reset before the server read the PATCH: not applied, in doubt.
    emulator.faults.add({ method: 'PATCH', path: ENTITY, reset: 'before', times: 1 });
    const run = await runCli(['run', file, '--journal', journal], { env, clock });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const resuming = older ? withoutServerClock(journal) : journal;

    // 2 minutes on: past longest: (and the 30 s a write may take to leave) when the resume begins.
    await clock.sleep(2 * MINUTE, never);
    held = 2 * MINUTE;
    const resumed = await runCli(['run', file, '--resume', resuming, '--in-doubt', mode], { env, clock });
    assert.equal(held, 0, 'the read was held');
    assert.doesNotMatch(resumed.stdout + resumed.stderr, /cannot-tell|ahead of|behind/);
    const applied = emulator.requests.filter((r) => r.applied && r.method === 'PATCH' && r.path === ENTITY).length;
    if (mode === 'verify-and-retry') {
      assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
      assert.match(resumed.stdout, /^verify: ".*": not-applied: .*past the step's longest: 1m\)$/m, resumed.stdout);
      assert.equal(applied, 1, 'sent again once');
    } else {
      // Not applied: --in-doubt verify sends nothing again, and says how to (RESUME_REFUSED, exit 2).
      assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
      assert.match(
        resumed.stderr,
        /: not-applied: .*past the step's longest: 1m\)\n {2}hint: resume with --in-doubt verify-and-retry/,
      );
      assert.equal(applied, 0);
    }
  });
