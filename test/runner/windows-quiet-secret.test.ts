// A window's quiet gate names the sessions that stayed when it gives up. A session's user name can
// be a secret's value (a service login the pipeline watches for): the refusal that names it is
// masked everywhere it goes, the terminal, the journal (a local one, or the run store's) and every
// report, as the wait's own lines are.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { serve, Sites } from '../../src/emulator/index.ts';
import { runCli } from '../helpers/cli.ts';

const MINUTE = 60_000;
const SECRET = 'Zq7-secret-login-42';

for (const where of ['journal', 'store'] as const) {
  test(`a quiet gate that gives up names the sessions that stayed, a secret user name masked in the terminal, the ${where} and every report`, async (t) => {
    const clock = simulatedClock(Date.parse('2026-03-10T02:00:00Z'));
    const sites = new Sites({ now: clock.now });
    const running = await serve(sites, { port: 0 });
    t.after(() => running.close());
    const site = sites.site('site-001');
    const template = site.state.sessions[0]!;
    const stays = { sessionId: 's-1', userName: SECRET, engineId: 'eng-prod-01', applicationName: 'ERP Desktop' };
    site.state.sessions = [
      { ...template, ...stays, expiresAt: clock.now() + 600 * MINUTE, dropsAt: null } as typeof template,
    ];
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-quiet-secret-'));
    const store = join(dir, 'store');
    mkdirSync(store);
    const file = join(dir, 'quiet.yml');
    writeFileSync(
      file,
      `version: 1
servers:
  site: { url: "${running.url}/sites/site-001", username: admin, password: admin }
vars:
  who: "\${{ secrets.WATCH_USER }}"
windows:
  night: { cron: '0 2 * * *', duration: 2h, zone: UTC, quiet: {} }
steps:
  - id: clear
    name: clear
    uses: transaction-log/clear
    server: site
    expected: 40m
  - id: echo
    uses: api/request
    server: site
    with: { path: "/api/monitoring/v1/alerts?u=\${{ vars.who }}" }
`,
    );
    const reports = { json: join(dir, 'r.json'), md: join(dir, 's.md'), html: join(dir, 'r.html') };
    const journal = join(dir, 'j.jsonl');
    const r = await runCli(
      [
        'run',
        file,
        '--report-json',
        reports.json,
        '--summary',
        reports.md,
        '--html',
        reports.html,
        ...(where === 'store' ? ['--store', `file://${store}`] : ['--journal', journal]),
      ],
      { clock, env: { WATCH_USER: SECRET } },
    );
    // It gave up on the window (failed, or parked with a store), naming the session masked.
    assert.match(r.stdout, /the application was not quiet \(1 session\(s\) stayed: \*\*\* \(ERP Desktop\)/, r.stdout);
    const texts: Record<string, string> = { stdout: r.stdout, stderr: r.stderr };
    for (const [name, path] of Object.entries(reports)) texts[name] = readFileSync(path, 'utf8');
    if (where === 'journal') texts.journal = readFileSync(journal, 'utf8');
    else
      for (const id of readdirSync(join(store, 'runs')))
        for (const segment of readdirSync(join(store, 'runs', id, 'journal')))
          texts[`store ${segment}`] = readFileSync(join(store, 'runs', id, 'journal', segment), 'utf8');
    const leaks = Object.entries(texts).filter(([, text]) => text.includes(SECRET));
    assert.deepEqual(
      leaks.map(([name]) => name),
      [],
      'the secret is in none of them',
    );
  });
}
