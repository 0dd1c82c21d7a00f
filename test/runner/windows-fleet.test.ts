// 1,000 sites over 24 time zones, each with its night window (01:00 to 05:00 local) in its own
// zone: a run at one instant writes exactly the sites whose local night has room for the write,
// as the zones' own clocks (Intl) say, and refuses every other, naming its next night.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { runYaml } from '../helpers/run.ts';

const ZONES = [
  'Pacific/Honolulu',
  'America/Anchorage',
  'America/Los_Angeles',
  'America/Denver',
  'America/Chicago',
  'America/New_York',
  'America/Santiago',
  'America/Sao_Paulo',
  'Atlantic/Azores',
  'Europe/London',
  'Europe/Berlin',
  'Europe/Helsinki',
  'Europe/Moscow',
  'Asia/Dubai',
  'Asia/Karachi',
  'Asia/Kolkata',
  'Asia/Dhaka',
  'Asia/Bangkok',
  'Asia/Shanghai',
  'Asia/Tokyo',
  'Australia/Adelaide',
  'Australia/Sydney',
  'Pacific/Noumea',
  'Pacific/Auckland',
];
const SITES = Array.from({ length: 1000 }, (_, i) => `s${i}`);
const zoneOf = (i: number) => ZONES[i % ZONES.length]!;

/** The local minutes since midnight in a zone at an instant. */
function localMinutes(zone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return get('hour') * 60 + get('minute');
}

test('1,000 sites over 24 time zones: each written only in its own local night', async (t) => {
  const windows = ZONES.map(
    (zone, z) =>
      `  night-${z}: { cron: '0 1 * * *', duration: 4h, zone: ${zone}, matrix: { site: [${SITES.filter((_, i) => i % ZONES.length === z).join(', ')}] } }`,
  ).join('\n');
  const yaml = `version: 1
windows:
${windows}
steps:
  - id: clear
    uses: transaction-log/clear
    matrix: { site: [${SITES.join(', ')}] }
    max-parallel: 50
    fail-fast: false
    expected: 30m
`;
  // Near an autumn change: Europe and North America still in summer time, Australia just on it.
  for (const at of [Date.parse('2026-10-20T00:10:00Z'), Date.parse('2026-10-20T13:40:00Z')]) {
    const { result } = await runYaml(t, yaml, { clock: simulatedClock(at) });
    let written = 0;
    for (const run of result.steps) {
      const i = Number(String(run.matrix!.site).slice(1));
      const judged = Date.parse(run.window!.at);
      const local = localMinutes(zoneOf(i), judged);
      // 01:00 to 05:00, and the write (30m + 10%) ends by 05:00.
      const fits = local >= 60 && local + 33 <= 300;
      assert.equal(run.outcome === 'success', fits, `${run.matrix!.site} in ${zoneOf(i)} at local ${local}m`);
      if (!fits) {
        assert.equal(run.error?.code, 'WINDOW_CLOSED');
        const next = Date.parse(run.window!.next!);
        assert.equal(localMinutes(zoneOf(i), next), 60, 'the next opening is 01:00 local');
      } else written++;
    }
    assert.ok(written > 0 && written < 1000, `written ${written}`);
  }
});
