// A duration that becomes a timer holds at most 596h (2^31-1 ms): Node fires a longer timer after
// 1 ms, so a lease of ttl 2000h was renewed every millisecond and a store's ?timeout=1000h failed
// every request at once. Such a duration is refused where it is given: by validate at
// file:line:col (a lease's ttl and wait, a call's timeout, a retry's delay, a gate's wait), as a
// usage error for a flag (--shard-ttl, --shard-wait), as STORE_REFUSED for ?timeout=.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const LIMIT = /at most 596h \(2\^31-1 ms, the longest a timer holds\)/;

test('validate refuses a lease ttl or wait, a call timeout, a retry delay or a gate wait over 596h, at its file:line:col', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-timer-limit-'));
  const cases: [string, string][] = [
    ['lease: { name: big, ttl: 2000h }\nsteps:\n  - uses: transaction-log/clear\n', ':2:'],
    ['lease: { name: big, wait: 597h }\nsteps:\n  - uses: transaction-log/clear\n', ':2:'],
    ['steps:\n  - uses: transaction-log/clear\n    timeout: 1000h\n', ':4:'],
    ['steps:\n  - uses: transaction-log/clear\n    retry: { attempts: 2, delay: 1000h }\n', ':4:'],
    [
      'steps:\n  - uses: monitoring/sessions\n    with: { max-active: 0, wait: { timeout: 1000h, interval: 5m } }\n',
      ':4:',
    ],
  ];
  for (const [body, line] of cases) {
    const file = join(dir, 'p.yml');
    writeFileSync(file, `version: 1\n${body}`);
    const r = await runCli(['validate', file]);
    const said = `${body}: exit ${r.code}\n${r.stdout}${r.stderr}`;
    assert.equal(r.code, 2, said);
    assert.match(r.stdout + r.stderr, new RegExp(`p\\.yml${line}\\d+ .*${LIMIT.source}`), said);
  }
  // At the limit: valid.
  writeFileSync(
    join(dir, 'ok.yml'),
    'version: 1\nlease: { name: big, ttl: 596h }\nsteps:\n  - uses: transaction-log/clear\n',
  );
  const ok = await runCli(['validate', join(dir, 'ok.yml')]);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
});

test('--shard-ttl and --shard-wait over 596h are usage errors, ?timeout= over it STORE_REFUSED: exit 2, saying the limit', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-timer-flags-'));
  const file = join(dir, 'fleet.yml');
  writeFileSync(
    file,
    'version: 1\nvars: { sites: [s1] }\nrollout: { over: site, waves: [rest] }\nsteps:\n  - uses: transaction-log/clear\n    matrix: { site: "${{ vars.sites }}" }\n',
  );
  const store = `file://${mkdtempSync(join(tmpdir(), 'enginectl-timer-store-'))}`;
  const run = '20261204T000000Z-aaaaaaaaaaaa';
  for (const args of [
    ['run', file, '--store', store, '--run', run, '--shard', '1/1', '--shard-ttl', '2000h'],
    ['run', file, '--store', store, '--run', run, '--shard', '1/1', '--shard-wait', '1000h'],
    ['runs', '--store', 's3://my-bucket/runs?region=eu-west-1&timeout=1000h'],
  ]) {
    const r = await runCli(args, { env: { ENGINE_URL: 'http://127.0.0.1:9' } });
    const said = `${args.join(' ')}: exit ${r.code}\n${r.stdout}${r.stderr}`;
    assert.equal(r.code, 2, said);
    assert.match(r.stderr, LIMIT, said);
    assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, said);
  }
});

test('validate refuses a retry whose longest wait (delay × backoff^(attempts-2)) is over 596h, at its attempts, saying what fits', async () => {
  // The default delay 10s and backoff 2: the wait before attempt 20 is 10s × 2^18 = 728h10m40s,
  // which a timer fires after 1 ms; 19 attempts wait at most 10s × 2^17 = 364h5m20s.
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-retry-limit-'));
  const cases: [string, string, RegExp][] = [
    [
      'steps:\n  - uses: transaction-log/clear\n    retry: { attempts: 20 }\n',
      ':4:',
      /the wait before attempt 20 would be 728h10m40s \(10s × 2\^18\).*give at most 19 attempts, a smaller delay or a smaller backoff/,
    ],
    [
      'defaults:\n  retry:\n    attempts: 3\n    delay: 400h\n    backoff: 1.5\nsteps:\n  - uses: transaction-log/clear\n',
      ':4:',
      /the wait before attempt 3 would be 600h \(400h × 1\.5\^1\).*give at most 2 attempts, a smaller delay or a smaller backoff/,
    ],
  ];
  for (const [body, line, words] of cases) {
    const file = join(dir, 'p.yml');
    writeFileSync(file, `version: 1\n${body}`);
    const r = await runCli(['validate', file]);
    const said = `${body}: exit ${r.code}\n${r.stdout}${r.stderr}`;
    assert.equal(r.code, 2, said);
    assert.match(r.stdout + r.stderr, new RegExp(`p\\.yml${line}\\d+ .*${LIMIT.source}`), said);
    assert.match(r.stdout + r.stderr, words, said);
    // run validates first: nothing is sent.
    const run = await runCli(['run', file, '--emulator']);
    assert.equal(run.code, 2, `run: ${run.stdout}${run.stderr}`);
    assert.doesNotMatch(run.stdout, /▶/, run.stdout);
  }
  // At the limit: valid (19 attempts of the defaults; a backoff of 1 never grows the delay).
  for (const retry of ['{ attempts: 19 }', '{ attempts: 100, delay: 596h, backoff: 1 }']) {
    writeFileSync(join(dir, 'ok.yml'), `version: 1\nsteps:\n  - uses: transaction-log/clear\n    retry: ${retry}\n`);
    const ok = await runCli(['validate', join(dir, 'ok.yml')]);
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  }
});
