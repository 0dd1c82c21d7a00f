// Property, through the runner on the simulated clock: over random schedules (windows and
// freezes, recurring and dated, in zones across DST changes), expected durations, start times and
// overrides (by an allowed identity, by another, or none), every write that started either fit its
// window and met no freeze at the instant it was judged (checked by the oracle), or carries a
// recorded override by an identity the pipeline allows; every write refused names why and the next
// window. Each case is a whole run against the emulator, so there are fewer than the schedule's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { simulatedClock } from '../../src/app/clock.ts';
import { loadPipeline } from '../../src/pipeline/load.ts';
import { runYaml } from '../helpers/run.ts';
import { oracleFits } from '../schedule/oracle.ts';

export const RUNNER_RUNS = 400;
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'Asia/Kolkata', 'America/Santiago'];
const NEAR = ['2026-03-08', '2026-03-29', '2026-04-05', '2026-10-04', '2026-10-25', '2026-11-01'].map((d) =>
  Date.parse(`${d}T00:00:00Z`),
);

const recurrence = fc.record({
  cron: fc
    .tuple(
      fc.constantFrom('0', '30'),
      fc.constantFrom('*', '*/3', '1', '2', '22'),
      fc.constantFrom('*', 'SAT', 'MON-FRI'),
    )
    .map(([m, h, dow]) => `${m} ${h} * * ${dow}`),
  zone: fc.constantFrom(...ZONES),
  hours: fc.integer({ min: 1, max: 10 }),
  sites: fc.constantFrom(undefined, 'a', 'b'),
});
const scope = (site: string | undefined) => (site ? `, matrix: { site: [${site}] }` : '');

const cases = fc.record({
  windows: fc.array(recurrence, { maxLength: 2 }),
  freezes: fc.array(
    fc.oneof(
      recurrence.map((r) => ({ ...r, from: undefined })),
      fc.record({
        from: fc.integer({ min: -48, max: 48 }),
        hours: fc.integer({ min: 1, max: 24 }),
        sites: fc.constantFrom(undefined, 'a', 'b'),
      }),
    ),
    { maxLength: 2 },
  ),
  base: fc.constantFrom(...NEAR),
  offsetMin: fc.integer({ min: -36 * 60, max: 36 * 60 }),
  expectedMin: fc.array(fc.integer({ min: 5, max: 180 }), { minLength: 2, maxLength: 2 }),
  override: fc.constantFrom(undefined, 'alice', 'mallory'),
});

test(`${RUNNER_RUNS} random runs: every write started fit its window, or carries an allowed, recorded override`, async (t) => {
  let started = 0;
  let refused = 0;
  let overridden = 0;
  await fc.assert(
    fc.asyncProperty(cases, async (c) => {
      const iso = (ms: number) => new Date(ms).toISOString().slice(0, 16);
      const yaml = `version: 1
${c.windows.length ? 'windows:\n' : ''}${c.windows
        .map((w, i) => `  w${i}: { cron: '${w.cron}', duration: ${w.hours}h, zone: ${w.zone}${scope(w.sites)} }\n`)
        .join('')}${c.freezes.length ? 'freezes:\n' : ''}${c.freezes
        .map((f, i) =>
          'cron' in f && f.from === undefined
            ? `  f${i}: { cron: '${f.cron}', duration: ${f.hours}h, zone: ${f.zone}${scope(f.sites)} }\n`
            : `  f${i}: { zone: UTC, dates: [{ from: '${iso(c.base + f.from! * 3_600_000)}Z', to: '${iso(c.base + (f.from! + f.hours) * 3_600_000)}Z' }]${scope(f.sites)} }\n`,
        )
        .join('')}override-freeze: [alice]
steps:
${c.expectedMin
  .map(
    (m, i) => `  - id: w${i}
    uses: transaction-log/clear
    matrix: { site: [a, b] }
    fail-fast: false
    if: always()
    expected: ${m}m
`,
  )
  .join('')}`;
      const { result } = await runYaml(t, yaml, {
        clock: simulatedClock(c.base + c.offsetMin * 60_000),
        ...(c.override ? { windowOverride: { by: c.override, reason: 'property' } } : {}),
      });
      const spec = loadPipeline({ file: 'p.yml', text: yaml, env: { ENGINE_URL: 'http://127.0.0.1:9' } }).pipeline
        .schedule;
      for (const run of result.steps) {
        const w = run.window;
        if (!spec || (c.windows.length === 0 && c.freezes.length === 0)) continue;
        if (run.startedAt !== undefined) {
          started++;
          if (w?.override) {
            overridden++;
            assert.equal(w.override.by, 'alice', 'only an allowed identity overrides');
            assert.notEqual(w.verdict, 'fits');
          } else if (w) {
            assert.equal(w.verdict, 'fits');
            const site = String(run.matrix!.site);
            assert.ok(
              oracleFits(spec, site, Date.parse(w.at), w.needMs),
              `${run.name} started at ${w.at} does not fit`,
            );
          }
        } else {
          refused++;
          assert.equal(run.error?.code, 'WINDOW_CLOSED');
          assert.notEqual(w?.verdict, 'fits');
          assert.ok(w?.next === undefined || Date.parse(w.next) >= Date.parse(w.at));
        }
      }
    }),
    { numRuns: RUNNER_RUNS },
  );
  assert.ok(
    started > 20 && refused > 20 && overridden > 5,
    `started ${started}, refused ${refused}, overridden ${overridden}`,
  );
});
