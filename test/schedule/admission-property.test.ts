// Property: over 10,000 randomized schedules (windows and freezes in zones with DST changes,
// recurring and dated, overlapping; histories of write durations; instants around the changes),
// no write is admitted whose expected end (p95 or declared, plus the margin) crosses its window's
// end or meets a freeze, and the next opening named is one where it fits. The oracle lists every
// occurrence croner gives in a span and merges them itself; it shares no code with the schedule.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { fits, nextFit } from '../../src/schedule/schedule.ts';
import { needOf, scheduleFor, type Margin, type ScheduleSpec } from '../../src/schedule/spec.ts';
import { expectedOf } from '../../src/schedule/expected.ts';
import { oracleFits } from './oracle.ts';

export const SCHEDULE_RUNS = 10_000;
const M = 60_000;
const H = 60 * M;
const ZONES = [
  'UTC',
  'Europe/Berlin',
  'Europe/London',
  'America/New_York',
  'America/Santiago',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'Asia/Kolkata',
  'Pacific/Chatham',
];
// Instants near the DST changes of 2026 in both hemispheres (and one quiet day).
const NEAR = [
  '2026-03-08',
  '2026-03-29',
  '2026-04-05',
  '2026-09-06',
  '2026-10-04',
  '2026-10-25',
  '2026-11-01',
  '2026-06-15',
].map((d) => Date.parse(`${d}T00:00:00Z`));

const cron = fc
  .tuple(
    fc.constantFrom('0', '30', '15,45'),
    fc.constantFrom('*', '*/2', '*/6', '1', '2', '3', '22', '0-4'),
    fc.constantFrom('*', '1-7', '15-21'),
    fc.constantFrom('*', 'SAT', 'SUN', 'MON-FRI', 'SAT#1', 'SUN#1', 'SUN#L'),
  )
  .map(([m, h, dom, dow]) => `${m} ${h} ${dom} * ${dow}`);
const recurrence = fc.record({
  cron,
  zone: fc.constantFrom(...ZONES),
  durationMs: fc.integer({ min: 15, max: 12 * 60 }).map((m) => m * M),
});
const sites = fc.constantFrom(undefined, ['a'], ['b'], ['a', 'b']);

const specs = fc.record({
  windows: fc.array(fc.record({ r: recurrence, sites }), { maxLength: 3 }),
  freezes: fc.array(
    fc.record({
      r: fc.option(recurrence, { nil: undefined }),
      dates: fc.array(
        fc.record({
          base: fc.constantFrom(...NEAR),
          from: fc.integer({ min: -72, max: 72 }),
          hours: fc.integer({ min: 1, max: 48 }),
        }),
        { maxLength: 2 },
      ),
      sites,
    }),
    { maxLength: 2 },
  ),
  margin: fc.oneof(
    fc.integer({ min: 0, max: 50 }).map((p): Margin => ({ share: p / 100 })),
    fc.integer({ min: 0, max: 60 }).map((m): Margin => ({ ms: m * M })),
  ),
});

const cases = fc.record({
  spec: specs,
  site: fc.constantFrom('a', 'b'),
  t: fc.tuple(fc.constantFrom(...NEAR), fc.integer({ min: -48 * 60, max: 48 * 60 })).map(([b, m]) => b + m * M),
  history: fc.array(
    fc.integer({ min: 1, max: 5 * 60 }).map((m) => m * M),
    { maxLength: 30 },
  ),
  declared: fc.option(
    fc.integer({ min: 1, max: 4 * 60 }).map((m) => m * M),
    { nil: undefined },
  ),
});

test(`${SCHEDULE_RUNS} random schedules: no write admitted past its window's end or into a freeze`, () => {
  let admitted = 0;
  let refused = 0;
  fc.assert(
    fc.property(cases, ({ spec: raw, site, t, history, declared }) => {
      const spec: ScheduleSpec = {
        windows: raw.windows.map((w, i) => ({
          name: `w${i}`,
          ...w.r,
          ...(w.sites ? { matrix: { site: w.sites } } : {}),
        })),
        freezes: raw.freezes.map((f, i) => ({
          name: `f${i}`,
          recurrence: f.r,
          dates: f.dates.map((d) => ({ start: d.base + d.from * H, end: d.base + (d.from + d.hours) * H })),
          ...(f.sites ? { matrix: { site: f.sites } } : {}),
        })),
        margin: raw.margin,
        overrideFreeze: [],
      };
      const schedule = scheduleFor(spec, { site });
      const need = needOf(expectedOf({ declaredMs: declared, history }).ms, spec.margin);
      const verdict = fits(schedule, t, need);
      if (verdict.fits) {
        admitted++;
        assert.ok(oracleFits(spec, site, t, need), `admitted at ${new Date(t).toISOString()} needing ${need / M}m`);
      } else refused++;
      // The next opening named is one where the write fits (looked for within 2 weeks here).
      const next = nextFit(schedule, t, need, 14 * 86_400_000);
      if (next !== undefined) {
        assert.ok(next >= t);
        assert.ok(oracleFits(spec, site, next, need), `next opening ${new Date(next).toISOString()} does not fit`);
      }
    }),
    { numRuns: SCHEDULE_RUNS },
  );
  // Both sides were exercised.
  assert.ok(admitted > 500 && refused > 500, `admitted ${admitted}, refused ${refused}`);
});
