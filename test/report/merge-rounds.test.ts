// A rollout's analysis rounds run its gate steps again for the wave's sites (the same step, the same
// site, round 1, 2, 3 after wave 1): each round is an instance of its own in every report. Given to
// report --merge (a report of a rollout, or a sharded run's merged report given again), each round is
// kept once, after the other instances, not refused as the report overlapping itself; and JUnit
// names each round's testcase apart from its site's own run of the step (names are unique).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import type { Report } from '../../src/report/index.ts';

const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Report;

test("report --merge of a rollout's report keeps each analysis round once, after the other instances", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-merge-rounds-'));
  const run = await runCli(['run', 'pipelines/fleet-rollout.yml', '--emulator', '--report-json', join(dir, 'r.json')]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const original = read(join(dir, 'r.json'));
  const rounds = original.steps.filter((s) => s.round !== null);
  assert.ok(rounds.length >= 6, 'two waves analysed, three rounds of two gates each');
  const merged = await runCli(['report', '--merge', join(dir, 'r.json'), '--report-json', join(dir, 'm.json')]);
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
  const report = read(join(dir, 'm.json'));
  const identity = (s: Report['steps'][number]) => `${s.name} ${s.outcome}`;
  assert.deepEqual(report.steps.map(identity), original.steps.map(identity), 'every instance once, in its place');
  assert.deepEqual(report.counts, original.counts);
});

test("JUnit names each analysis round's testcase apart from its site's own run of the gate", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-junit-rounds-'));
  const xml = join(dir, 'r.xml');
  const run = await runCli(['run', 'pipelines/fleet-rollout.yml', '--emulator', '--junit', xml]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const names = [...readFileSync(xml, 'utf8').matchAll(/<testcase name="([^"]*)"/g)].map((m) => m[1]!);
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  assert.deepEqual(twice, [], 'every testcase name is unique');
  assert.ok(names.includes('alerts (site=test)'), "the site's own run of the gate keeps its name");
  assert.ok(names.includes('alerts (site=test) analysis after wave 1, round 2'), names.join('\n'));
});
