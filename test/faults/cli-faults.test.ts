// Faults seen through the real `enginectl run` process: the exit code, a message without a stack
// trace, every report still written with each step's true outcome, and the requests the server
// received (the CLI's own retry policy, with its real backoff).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { FaultRule } from '../../src/emulator/index.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { assertOutcomes } from '../helpers/reports.ts';

const VFS = '/api/devops/v1/update/vfs';
const ALERTS = '/api/monitoring/v1/alerts';

/**
 * The server's time limit: 2s where the server holds the call (it never answers within it, so no
 * machine is too slow for it); 60s elsewhere, so that a loaded machine's slow answer or backoff is
 * never read as a timeout.
 */
const pipeline = (timeout: string) => `version: 1
name: Faulty release
servers:
  main: { url: "\${{ env.ENGINE_URL }}", username: admin, password: "\${{ secrets.ENGINE_PASSWORD }}", timeout: ${timeout} }
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - name: No critical alerts
    uses: monitoring/alerts
    with: { fail-on: critical }
  - name: Reports to production
    uses: update/vfs
    with: { target: prod, files: [1001] }
  - name: Record the release
    uses: classes/create
    with: { class: 30, fields: { iname: r-1, irelease: "2026.11" } }
`;

interface CliFault {
  name: string;
  rule: FaultRule;
  code: string;
  /** Outcomes of the three steps. */
  outcomes: string[];
  /** Requests to the faulted call. */
  requests: number;
}

const CASES: CliFault[] = [
  {
    name: 'reset during the update',
    rule: { method: 'POST', path: VFS, reset: 'after' },
    code: 'API_CONNECTION_RESET',
    outcomes: ['success', 'failure', 'skipped'],
    requests: 1,
  },
  {
    name: '503 on the update',
    rule: { method: 'POST', path: VFS, status: 503 },
    code: 'API_HTTP_STATUS',
    outcomes: ['success', 'failure', 'skipped'],
    requests: 1,
  },
  {
    name: "a proxy's HTML page",
    rule: {
      method: 'POST',
      path: VFS,
      status: 502,
      body: '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>',
      contentType: 'text/html',
    },
    code: 'API_HTTP_STATUS',
    outcomes: ['success', 'failure', 'skipped'],
    requests: 1,
  },
  {
    name: 'invalid JSON',
    rule: { method: 'POST', path: VFS, invalidJson: true },
    code: 'API_INVALID_RESPONSE',
    outcomes: ['success', 'failure', 'skipped'],
    requests: 1,
  },
  {
    name: 'a truncated body',
    rule: { method: 'POST', path: VFS, truncate: true },
    code: 'API_CONNECTION_RESET',
    outcomes: ['success', 'failure', 'skipped'],
    requests: 1,
  },
  {
    name: 'no answer within the server timeout',
    rule: { method: 'POST', path: VFS, hang: true },
    code: 'API_TIMEOUT',
    outcomes: ['success', 'failure', 'skipped'],
    requests: 1,
  },
  {
    name: 'a GET that keeps failing with 503',
    rule: { method: 'GET', path: ALERTS, status: 503 },
    code: 'API_HTTP_STATUS',
    outcomes: ['failure', 'skipped', 'skipped'],
    requests: 4,
  },
];

describe('faults through the CLI process', { concurrency: true }, () => {
  for (const c of CASES) {
    it(`${c.name}: exit 1, no stack trace, every report written with the true outcomes`, async (t) => {
      const { url, emulator } = await startEmulator(t, { faults: [c.rule] });
      const dir = mkdtempSync(join(tmpdir(), 'enginectl-fault-'));
      writeFileSync(join(dir, 'release.yml'), pipeline(c.rule.hang ? '2s' : '60s'));
      const files = {
        json: join(dir, 'r/report.json'),
        junit: join(dir, 'r/junit.xml'),
        summary: join(dir, 'r/summary.md'),
        html: join(dir, 'r/report.html'),
      };
      const r = await runCli(
        [
          'run',
          join(dir, 'release.yml'),
          '--report-json',
          files.json,
          '--junit',
          files.junit,
          '--summary',
          files.summary,
          '--html',
          files.html,
          '--ci',
          'plain',
        ],
        {
          env: { ENGINE_URL: url, ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' },
        },
      );
      const output = r.stdout + r.stderr;
      assert.equal(r.code, 1, output);
      assert.doesNotMatch(output, /\n\s+at .+:\d+:\d+\)?\n/, 'no stack trace');
      assert.match(output, new RegExp(`${c.code}|${c.rule.method} ${c.rule.path}`), 'says which call failed');
      for (const [kind, path] of Object.entries(files)) assert.ok(existsSync(path), `the ${kind} report is written`);
      const texts = {
        json: readFileSync(files.json, 'utf8'),
        junit: readFileSync(files.junit, 'utf8'),
        summary: readFileSync(files.summary, 'utf8'),
        html: readFileSync(files.html, 'utf8'),
      };
      assertOutcomes(texts, c.outcomes);
      const failed = (JSON.parse(texts.json) as { steps: { error: { code: string } | null }[] }).steps.find(
        (s) => s.error,
      )!;
      assert.equal(failed.error!.code, c.code);
      assert.equal(emulator.count(c.rule.method!, c.rule.path), c.requests);
      if (c.requests > 1)
        assert.equal((output.match(/retry \d in /g) ?? []).length, c.requests - 1, 'each retry is told');
      assert.equal(emulator.count('POST', '/api/classes/v1/classes/30/entities'), 0, 'nothing runs after the failure');
    });
  }
});
