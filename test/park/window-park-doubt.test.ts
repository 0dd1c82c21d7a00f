// A run that parks for a window while a write of it is in doubt (its first attempt answered 504 by
// a gateway, its retry outside the window): the continue at the next window is refused until
// --in-doubt says what happened to that call, so the park says so, with the command that goes on,
// instead of a plain --continue a scheduled job would try in vain each night.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { PARKED, runIdOf } from './helpers.ts';
import { nightly } from './nightly.ts';

const never = new AbortController().signal;

test('a run parked for a window with a write in doubt says the continue needs --in-doubt, and that continue goes on', async (t) => {
  const f = await nightly(t, '2026-03-10T05:00:00Z');
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8')
      .replace('    expected: 10m\n', '    expected: 10m\n    retry: { attempts: 2, delay: 1h, in-doubt: retry }\n')
      .replace(/ {2}- id: long[\s\S]*?expected: 2h\n/, ''),
  );
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/transaction-log/clear', gateway: 504, times: 1 });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  assert.equal(f.clears(), 1);
  // The park names the doubt and the continue that decides it; the write's hint too.
  assert.match(
    first.stdout,
    new RegExp(
      `the run is saved: enginectl run \\S+ --store URL --continue ${id} --in-doubt skip \\(it was applied\\) or --in-doubt retry \\(it was not\\), once you checked on the server what 1 call in doubt did, at or after 2026-03-11T02:00:00.000Z`,
    ),
  );
  assert.match(first.stdout, /hint: when the run parked for it \(exit 75\), .*--continue RUN --in-doubt skip or retry/);
  // At the next window, that continue goes on: the clear was applied, not sent again.
  await f.clock.sleep(Date.parse('2026-03-11T02:01:00Z') - f.clock.now(), never);
  const next = await f.run('--continue', id, '--in-doubt', 'skip');
  assert.equal(next.code, 0, next.stdout + next.stderr);
  assert.equal(f.clears(), 1);
});
