// The schedule model (src/schedule/): windows in a site's own zone, the third Saturday, freezes
// that beat windows, dated ranges, the expected duration of a write, and the next opening.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cronProblem, instantOf, zoneProblem } from '../../src/schedule/recurrence.ts';
import { allowedAt, fits, nextFit, nextOpening, windowEnd } from '../../src/schedule/schedule.ts';
import { needOf, scheduleFor, type ScheduleSpec } from '../../src/schedule/spec.ts';
import { DEFAULT_EXPECTED_MS, expectedOf, p95 } from '../../src/schedule/expected.ts';

const H = 3_600_000;
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

const spec: ScheduleSpec = {
  windows: [
    { name: 'third-saturday', cron: '0 2 * * SAT#3', zone: 'Europe/Berlin', durationMs: 4 * H },
    { name: 'us-nights', cron: '0 22 * * *', zone: 'America/New_York', durationMs: 6 * H, matrix: { site: ['us'] } },
  ],
  freezes: [
    {
      name: 'quarter-close',
      dates: [{ start: at('2026-03-28T00:00:00Z'), end: at('2026-04-02T00:00:00Z') }],
    },
  ],
  margin: { share: 0.1 },
  overrideFreeze: [],
};

test('the third Saturday, 02:00 to 06:00 in Berlin: inside, its end, the next opening', () => {
  const eu = scheduleFor(spec, { site: 'eu' });
  assert.equal(eu.windows.length, 1, 'the US window applies to the US site only');
  // 2026-02-21 is the third Saturday of February; Berlin is UTC+1.
  assert.equal(allowedAt(eu, at('2026-02-21T01:30:00Z')), true);
  assert.equal(iso(windowEnd(eu, at('2026-02-21T01:30:00Z'))), '2026-02-21T05:00:00.000Z');
  assert.equal(allowedAt(eu, at('2026-02-21T05:00:00Z')), false, 'the end is outside');
  assert.equal(iso(nextOpening(eu, at('2026-02-21T05:00:00Z'))), '2026-03-21T01:00:00.000Z');
});

test('a write that would overrun the window is refused, and the next window it fits in named', () => {
  const eu = scheduleFor(spec, { site: 'eu' });
  const need = needOf(40 * 60_000, spec.margin); // 44 minutes
  assert.deepEqual(fits(eu, at('2026-02-21T04:00:00Z'), need), { fits: true, end: at('2026-02-21T05:00:00Z') });
  const late = fits(eu, at('2026-02-21T04:30:00Z'), need);
  assert.equal(late.fits, false);
  assert.equal(late.fits === false && late.why, 'overrun');
  assert.equal(iso(nextFit(eu, at('2026-02-21T04:30:00Z'), need)), '2026-03-21T01:00:00.000Z');
});

test('deny beats allow: a window inside a dated freeze is skipped to the next one after it', () => {
  const eu = scheduleFor(spec, { site: 'eu' });
  // The March window (the 21st) is before the freeze; in April, the third Saturday is the 18th, in summer time.
  assert.equal(allowedAt(eu, at('2026-03-21T02:00:00Z')), true);
  const frozen = scheduleFor(
    {
      ...spec,
      freezes: [{ name: 'all-march', dates: [{ start: at('2026-03-01T00:00:00Z'), end: at('2026-04-01T00:00:00Z') }] }],
    },
    { site: 'eu' },
  );
  const v = fits(frozen, at('2026-03-21T02:00:00Z'), H);
  assert.equal(v.fits === false && v.why, 'frozen');
  assert.equal(iso(nextFit(frozen, at('2026-03-21T02:00:00Z'), H)), '2026-04-18T00:00:00.000Z');
  // A freeze that begins before the write would end is overlapped too.
  const soon = scheduleFor(
    {
      ...spec,
      windows: [],
      freezes: [{ name: 'f', dates: [{ start: at('2026-05-01T01:00:00Z'), end: at('2026-05-01T02:00:00Z') }] }],
    },
    {},
  );
  assert.equal(fits(soon, at('2026-05-01T00:30:00Z'), H).fits, false);
  assert.equal(iso(nextFit(soon, at('2026-05-01T00:30:00Z'), H)), '2026-05-01T02:00:00.000Z');
  assert.equal(fits(soon, at('2026-05-01T00:00:00Z'), H).fits, true, 'ending as the freeze begins');
});

test("a site's window in its own zone across DST: 22:00 New York is 03:00Z in winter, 02:00Z in summer", () => {
  const us = scheduleFor({ ...spec, freezes: [] }, { site: 'us' });
  assert.equal(iso(nextOpening(us, at('2026-03-06T12:00:00Z'))), '2026-03-07T03:00:00.000Z');
  assert.equal(iso(nextOpening(us, at('2026-03-09T12:00:00Z'))), '2026-03-10T02:00:00.000Z');
});

test('a site without windows is open except in a freeze; a recurring freeze', () => {
  const s = scheduleFor(
    {
      windows: [],
      freezes: [{ name: 'business-hours', recurrence: { cron: '0 8 * * MON-FRI', zone: 'UTC', durationMs: 10 * H } }],
      margin: { ms: 0 },
      overrideFreeze: [],
    },
    undefined,
  );
  // 2026-05-04 is a Monday.
  assert.equal(allowedAt(s, at('2026-05-04T07:00:00Z')), true);
  assert.equal(fits(s, at('2026-05-04T07:30:00Z'), H).fits, false);
  assert.equal(iso(nextFit(s, at('2026-05-04T07:30:00Z'), H)), '2026-05-04T18:00:00.000Z');
  assert.equal(windowEnd(s, 0), Infinity);
});

test('no window long enough within the horizon: no next opening', () => {
  const s = scheduleFor({ ...spec, freezes: [] }, { site: 'eu' });
  assert.equal(nextFit(s, at('2026-01-01T00:00:00Z'), 5 * H), undefined);
});

test('expected duration: declared wins, then the p95 of history (3 or more), longest, the timeout, an hour', () => {
  assert.equal(p95([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 100]), 19);
  assert.equal(p95([]), undefined);
  assert.deepEqual(expectedOf({ declaredMs: 5, history: [1, 2, 3] }), { ms: 5, source: 'declared' });
  assert.deepEqual(expectedOf({ history: [10, 30, 20] }), { ms: 30, source: 'history', samples: 3 });
  assert.deepEqual(expectedOf({ history: [10, 30], timeoutMs: 99 }), { ms: 99, source: 'timeout' });
  assert.deepEqual(expectedOf({ longestMs: 7 }), { ms: 7, source: 'longest' });
  assert.deepEqual(expectedOf({ timeoutMs: 99, longestMs: 7_200 }), { ms: 7_200, source: 'longest' });
  assert.deepEqual(expectedOf({}), { ms: DEFAULT_EXPECTED_MS, source: 'default' });
  assert.equal(needOf(100, { share: 0.1 }), 110);
  assert.equal(needOf(100, { ms: 50 }), 150);
});

test('cron expressions, zones and dates are checked', () => {
  assert.equal(cronProblem('0 2 * * SAT#3'), undefined);
  assert.match(cronProblem('every saturday') ?? '', /five, six, or seven/);
  assert.equal(zoneProblem('Asia/Kolkata'), undefined);
  assert.equal(zoneProblem('UTC'), undefined);
  assert.match(zoneProblem('Europe/Paris2') ?? '', /no IANA time zone/);
  assert.equal(iso(instantOf('2026-12-20', 'America/New_York')), '2026-12-20T05:00:00.000Z');
  assert.equal(iso(instantOf('2026-07-01T12:00+02:00', 'UTC')), '2026-07-01T10:00:00.000Z');
  assert.equal(instantOf('2026-02-30', 'UTC'), undefined);
});
