// Load through the real CLI on the embedded emulator: a matrix of 500 instances 32 at a time, and
// a pipeline of 5,000 steps. Every instance appears exactly once in every report and the counts
// add up. Peak memory is printed as a diagnostic (the benchmark in bench/ holds the target).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, cleanEnv } from '../helpers/cli.ts';
import { outcomesIn } from '../helpers/reports.ts';

/** Runs the CLI and samples its peak resident set (VmHWM) while it runs. */
async function runMeasured(
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string; peakMiB: number }> {
  const child = spawn(process.execPath, [CLI, ...args], { env: cleanEnv() });
  let stdout = '';
  let stderr = '';
  let peak = 0;
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const sample = setInterval(() => {
    try {
      const kb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
      peak = Math.max(peak, kb);
    } catch {
      // exited, or no /proc on this system
    }
  }, 25);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(sample);
  return { code, stdout, stderr, peakMiB: Math.round(peak / 1024) };
}

function reportFiles(dir: string) {
  const files = {
    json: join(dir, 'r.json'),
    junit: join(dir, 'r.xml'),
    summary: join(dir, 'r.md'),
    html: join(dir, 'r.html'),
  };
  const flags = ['--report-json', files.json, '--junit', files.junit, '--summary', files.summary, '--html', files.html];
  const read = () => ({
    json: readFileSync(files.json, 'utf8'),
    junit: readFileSync(files.junit, 'utf8'),
    summary: readFileSync(files.summary, 'utf8'),
    html: readFileSync(files.html, 'utf8'),
  });
  return { flags, read };
}

test('a matrix of 500 instances, 32 at a time: each instance once in every report, counts add up', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-load-'));
  const values = Array.from({ length: 500 }, (_, i) => i + 1);
  writeFileSync(
    join(dir, 'p.yml'),
    `version: 1
name: wide
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - uses: update/vfs
    name: "vfs \${{ matrix.n }}"
    matrix: { n: [${values.join(', ')}] }
    max-parallel: 32
    with: { target: prod, files: [1001], tracking-id: "T-\${{ matrix.n }}" }
  - uses: transaction-log/clear
`,
  );
  const reports = reportFiles(dir);
  const r = await runMeasured(['run', join(dir, 'p.yml'), '--emulator', ...reports.flags]);
  assert.equal(r.code, 0, r.stderr);
  // 32 calls in flight follow the run's one signal: no listener-leak warning, nor any other.
  assert.equal(r.stderr, '', 'nothing on stderr');
  t.diagnostic(`peak RSS of the 500-instance matrix: ${r.peakMiB} MiB`);
  const texts = reports.read();
  const outcomes = outcomesIn(texts);
  for (const [rendering, list] of Object.entries(outcomes)) {
    assert.equal(list.length, 501, `${rendering}: one row per instance plus the last step`);
    assert.ok(
      list.every((o) => o === 'success'),
      rendering,
    );
  }
  const report = JSON.parse(texts.json) as {
    counts: Record<string, number>;
    steps: { matrix: { n: number } | null; name: string }[];
  };
  assert.deepEqual(report.counts, {
    total: 501,
    success: 501,
    failure: 0,
    skipped: 0,
    cancelled: 0,
    inDoubt: 0,
    treatedAsApplied: 0,
  });
  assert.deepEqual(
    report.steps
      .filter((s) => s.matrix)
      .map((s) => s.matrix!.n)
      .sort((a, b) => a - b),
    values,
    'every instance once',
  );
  // Each instance by its name: once in the JUnit file, once in the summary table.
  for (const n of values) {
    // JUnit names are stable (the step's id or position, and its matrix values), not the display name.
    assert.equal(texts.junit.split(`<testcase name="step-1 (n=${n})"`).length - 1, 1, `JUnit: step-1 (n=${n})`);
    assert.equal(texts.summary.split(`| vfs ${n} |`).length - 1, 1, `summary: vfs ${n}`);
  }
  assert.match(texts.junit, /<testsuites name="wide" tests="501" failures="0"/);
  assert.match(r.stdout, /pipeline "wide": success in .* \(501 step run\(s\): 501 succeeded\)/);
});

test('a pipeline of 5,000 steps runs on the emulator; every step once in every report', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-long-'));
  const steps = Array.from({ length: 5000 }, (_, i) =>
    i % 10 === 0
      ? `  - uses: transaction-log/clear\n    name: step ${i}\n`
      : `  - uses: assert\n    name: step ${i}\n    with: { that: "\${{ ${i} > 0 }}" }\n`,
  ).join('');
  writeFileSync(join(dir, 'p.yml'), `version: 1\nname: long\nsteps:\n${steps}`);
  const reports = reportFiles(dir);
  const r = await runMeasured(['run', join(dir, 'p.yml'), '--emulator', ...reports.flags]);
  assert.equal(r.code, 0, r.stderr);
  t.diagnostic(`peak RSS of the 5,000-step pipeline: ${r.peakMiB} MiB`);
  const texts = reports.read();
  for (const [rendering, list] of Object.entries(outcomesIn(texts))) {
    assert.equal(list.length, 5000, rendering);
    assert.ok(
      list.every((o) => o === 'success'),
      rendering,
    );
  }
  const report = JSON.parse(texts.json) as { counts: Record<string, number>; steps: { step: number }[] };
  assert.deepEqual(report.counts, {
    total: 5000,
    success: 5000,
    failure: 0,
    skipped: 0,
    cancelled: 0,
    inDoubt: 0,
    treatedAsApplied: 0,
  });
  assert.deepEqual(
    report.steps.map((s) => s.step),
    Array.from({ length: 5000 }, (_, i) => i),
  );
  assert.ok(Buffer.byteLength(texts.summary) < 1024 * 1024, 'the summary stays under 1 MiB');
});
