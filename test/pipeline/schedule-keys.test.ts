// windows:, freezes:, window-margin:, override-freeze: and a step's expected: as the loader reads
// them: from the pipeline or an inventory it includes (shared by pipelines), a name defined twice
// named in both places, a finding in an inventory located in it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PipelineInvalid } from '../../src/pipeline/diagnostics.ts';
import { loadPipeline } from '../../src/pipeline/load.ts';

const env = { ENGINE_URL: 'http://127.0.0.1:9', ENGINE_USERNAME: 'u', ENGINE_PASSWORD: 'p' };
const STEPS = `steps:
  - uses: transaction-log/clear
    matrix: { site: [eu, us] }
    expected: 40m
`;
const INVENTORY = `windows:
  eu-night:
    cron: '0 1 * * *'
    duration: 4h
    zone: Europe/Berlin
    matrix: { site: [eu] }
freezes:
  quarter-close:
    zone: America/New_York
    dates: [{ from: 2026-12-20, to: '2027-01-04T12:00' }]
`;

const load = (text: string, files: Record<string, string> = {}) =>
  loadPipeline({ file: 'p.yml', text, env, readInclude: (path) => files[path] ?? '' }).pipeline;

test('the schedule keys, from an included inventory and the pipeline, as the runner reads them', () => {
  const pipeline = load(
    `version: 1\ninclude: [shared/schedule.yml]\nwindow-margin: 15m\noverride-freeze: [alice, incident-bot]\nwindows:\n  us-night: { cron: '0 22 * * *', duration: 6h, zone: America/New_York, matrix: { site: [us] } }\n${STEPS}`,
    { 'shared/schedule.yml': INVENTORY },
  );
  assert.equal(pipeline.steps[0]!.expectedMs, 40 * 60_000);
  const spec = pipeline.schedule!;
  assert.deepEqual(
    spec.windows.map((w) => [w.name, w.cron, w.zone, w.durationMs, w.matrix]),
    [
      ['us-night', '0 22 * * *', 'America/New_York', 6 * 3_600_000, { site: ['us'] }],
      ['eu-night', '0 1 * * *', 'Europe/Berlin', 4 * 3_600_000, { site: ['eu'] }],
    ],
  );
  assert.deepEqual(spec.freezes[0]!.dates, [
    { start: Date.parse('2026-12-20T05:00:00Z'), end: Date.parse('2027-01-04T17:00:00Z') },
  ]);
  assert.deepEqual(spec.margin, { ms: 15 * 60_000 });
  assert.deepEqual(spec.overrideFreeze, ['alice', 'incident-bot']);
  assert.deepEqual(load(`version: 1\n${STEPS}`).schedule, undefined, 'no windows, no freezes: no schedule');
  assert.deepEqual(
    load(`version: 1\nfreezes: { f: { cron: '0 0 * * *', duration: 1h, zone: UTC } }\n${STEPS}`).schedule?.margin,
    { share: 0.1 },
    'the default margin',
  );
});

test('a window defined twice names both places; a bad zone in an inventory is located in it', () => {
  const twice = () =>
    load(
      `version: 1\ninclude: [shared/schedule.yml]\nwindows:\n  eu-night: { cron: '0 1 * * *', duration: 1h, zone: UTC }\n${STEPS}`,
      { 'shared/schedule.yml': INVENTORY },
    );
  assert.throws(twice, (e: PipelineInvalid) =>
    e.diagnostics.some(
      (d) =>
        d.file === 'shared/schedule.yml' &&
        /window "eu-night" is defined twice: here and at p\.yml:4:3/.test(d.message),
    ),
  );
  const badZone = () =>
    load(`version: 1\ninclude: [shared/schedule.yml]\n${STEPS}`, {
      'shared/schedule.yml': INVENTORY.replace('Europe/Berlin', 'Europe/Berlim'),
    });
  assert.throws(badZone, (e: PipelineInvalid) =>
    e.diagnostics.some(
      (d) =>
        d.file === 'shared/schedule.yml' && d.line === 5 && /"Europe\/Berlim" is no IANA time zone/.test(d.message),
    ),
  );
  assert.throws(
    () => load(`version: 1\nwindow-margin: lots\n${STEPS}`),
    (e: PipelineInvalid) => e.diagnostics.some((d) => d.line === 2 && /window-margin/.test(d.message)),
  );
});
