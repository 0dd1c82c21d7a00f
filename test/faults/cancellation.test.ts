// SIGINT, SIGTERM and SIGHUP while a pipeline is busy: during a long update, during a gate's wait between
// two checks, and during a matrix with calls in flight. The calls never answer, so the CLI process
// can only end because of the signal: it must end with 130/143/129, abort the calls in flight (the
// server sees their connections close), and write every report with each step's true outcome.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { FaultRule } from '../../src/emulator/index.ts';
import { CLI, cleanEnv } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { assertOutcomes } from '../helpers/reports.ts';
import { until } from '../helpers/timing.ts';

const HEAD = `version: 1
name: busy
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - name: No critical alerts
    uses: monitoring/alerts
`;

interface Scenario {
  name: string;
  steps: string;
  faults: FaultRule[];
  /** The stdout text after which the signal is sent. */
  busyAfter: RegExp;
  /** Calls in flight when the signal comes. */
  inFlight: number;
  outcomes: string[];
}

const SCENARIOS: Scenario[] = [
  {
    name: 'a long update',
    steps: '  - uses: update/vfs\n    with: { target: prod, files: [1001] }\n  - uses: transaction-log/clear\n',
    faults: [{ path: '/api/devops/v1/update/vfs', hang: true }],
    busyAfter: /▶ \[2\/3\]/,
    inFlight: 1,
    // The update had been sent: in doubt, not merely cancelled.
    outcomes: ['success', 'in doubt', 'cancelled'],
  },
  {
    name: "a gate's wait between two checks",
    steps:
      '  - uses: monitoring/engines\n    with: { version: "99.0", wait: { timeout: 1h, interval: 2m } }\n  - uses: transaction-log/clear\n',
    faults: [],
    busyAfter: /waiting for .*next check in 2m/,
    inFlight: 0,
    outcomes: ['success', 'cancelled', 'cancelled'],
  },
  {
    name: 'a matrix with calls in flight',
    steps:
      '  - uses: update/vfs\n    matrix: { file: [1001, 1002, 1003, 1004] }\n    max-parallel: 2\n    with: { target: prod, files: ["${{ matrix.file }}"] }\n  - uses: transaction-log/clear\n',
    faults: [{ path: '/api/devops/v1/update/vfs', hang: true }],
    busyAfter: /▶ \[2\/3\].*\n(.*\n)*▶ \[2\/3\]/,
    inFlight: 2,
    outcomes: ['success', 'in doubt', 'in doubt', 'cancelled', 'cancelled', 'cancelled'],
  },
];

describe('interrupted while busy', { concurrency: true }, () => {
  for (const s of SCENARIOS) {
    for (const [signal, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
      // The terminal closed (an SSH session dropped): before, the process died at once, no report written.
      ['SIGHUP', 129],
    ] as const) {
      it(`${signal} during ${s.name}: exit ${code} while the calls hang, calls aborted, every report true`, async (t) => {
        const { url, emulator } = await startEmulator(t, { faults: s.faults });
        const dir = mkdtempSync(join(tmpdir(), 'enginectl-cancel-'));
        writeFileSync(join(dir, 'p.yml'), HEAD + s.steps);
        const files = {
          json: join(dir, 'r.json'),
          junit: join(dir, 'r.xml'),
          summary: join(dir, 'r.md'),
          html: join(dir, 'r.html'),
        };
        const child = spawn(
          process.execPath,
          [
            CLI,
            'run',
            join(dir, 'p.yml'),
            '--report-json',
            files.json,
            '--junit',
            files.junit,
            '--summary',
            files.summary,
            '--html',
            files.html,
          ],
          {
            env: cleanEnv({ ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' }),
          },
        );
        t.after(() => child.kill('SIGKILL'));
        let stdout = '';
        child.stdout.on('data', (c) => (stdout += c));
        const closed = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
        await until(() => s.busyAfter.test(stdout) && emulator.inFlight === s.inFlight);

        // The calls in flight never answer: the process can only end because of the signal.
        child.kill(signal);
        assert.equal(await closed, code, stdout);
        await until(() => emulator.inFlight === 0); // the server saw every call in flight end
        assert.equal(
          emulator.count('POST', '/api/devops/v1/transaction-log/clear'),
          0,
          'nothing started after the signal',
        );

        const texts = {
          json: readFileSync(files.json, 'utf8'),
          junit: readFileSync(files.junit, 'utf8'),
          summary: readFileSync(files.summary, 'utf8'),
          html: readFileSync(files.html, 'utf8'),
        };
        assertOutcomes(texts, s.outcomes);
        const report = JSON.parse(texts.json) as {
          outcome: string;
          steps: { error: { code: string } | null; outcome: string }[];
        };
        assert.equal(report.outcome, 'cancelled');
        for (const step of report.steps.filter((x) => x.outcome === 'cancelled'))
          assert.equal(step.error?.code, (step as { inDoubt?: unknown }).inDoubt ? 'IN_DOUBT' : 'CANCELLED');
      });
    }
  }
});
