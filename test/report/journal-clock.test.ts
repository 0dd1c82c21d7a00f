// A report made again from the journal of an --emulator run gives the emulator's clock, which the
// journal records, waits included (docs/report-format.md, JUnit): the run's duration and each step's
// start and duration alike: a step that waited 30 simulated minutes is not told as taking
// milliseconds in a run of 32 minutes (the HTML timeline drew every bar at its start).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import type { Report } from '../../src/report/index.ts';

test("the report of an --emulator run's journal times its steps on the journal's clock, as it times the run", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-journal-clock-'));
  const journal = join(dir, 'run.journal');
  const run = await runCli(['run', 'pipelines/demo.yml', '--emulator', '--journal', journal]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const again = await runCli(['report', journal, '--report-json', join(dir, 'r.json'), '--junit', join(dir, 'r.xml')]);
  assert.equal(again.code, 0, again.stdout + again.stderr);
  const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as Report;
  // The sessions are drained over 30 simulated minutes (the demo's wait, interval 5m).
  const drain = report.steps.find((s) => s.name === 'Drain user sessions')!;
  assert.ok(drain.durationMs! >= 30 * 60_000, `the drain waited 30 minutes, not ${drain.durationMs} ms`);
  const start = Date.parse(report.startedAt);
  for (const s of report.steps) {
    const at = Date.parse(s.startedAt!);
    assert.ok(at >= start && at + s.durationMs! <= start + report.durationMs, `${s.name} lies within the run`);
  }
  const xml = readFileSync(join(dir, 'r.xml'), 'utf8');
  const suite = Number(/<testsuite [^>]*time="([\d.]+)"/.exec(xml)![1]);
  const drained = Number(/<testcase name="step-3" [^>]*time="([\d.]+)"/.exec(xml)![1]);
  assert.ok(drained >= 1800 && drained <= suite, `JUnit: the drain's ${drained} s, within the suite's ${suite} s`);
});

test("the report of an --emulator rollout's journal times its analysis rounds on the journal's clock too, after their wave", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-journal-clock-'));
  const journal = join(dir, 'run.journal');
  const run = await runCli(['run', 'pipelines/fleet-rollout.yml', '--emulator', '--journal', journal]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const again = await runCli(['report', journal, '--report-json', join(dir, 'r.json')]);
  assert.equal(again.code, 0, again.stdout + again.stderr);
  const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as Report;
  const rounds = report.steps.filter((s) => s.round !== null);
  assert.ok(rounds.length > 0, 'the rollout ran its analysis');
  for (const round of rounds) {
    const site = round.matrix!['site'];
    // The site's own instances of the wave ran before the analysis after it.
    const own = report.steps.filter((s) => s.round === null && s.matrix?.['site'] === site);
    const latest = Math.max(...own.map((s) => Date.parse(s.startedAt!) + s.durationMs!));
    assert.ok(
      Date.parse(round.startedAt!) >= latest,
      `${round.name} at ${round.startedAt}, after ${String(site)}'s own instances (ended ${new Date(latest).toISOString()})`,
    );
  }
});
