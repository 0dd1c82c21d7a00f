// A site's write that its worker left in doubt (killed as the server applied it) is read back by
// the next attempt of its shard (verify: applied) and not sent again: treated as applied, its end
// recorded so. When that attempt is killed too, later in the site (its next write at the server),
// the third attempt resumes the same journal: the write verify read applied must stay unsent.
// Before, the end the second attempt recorded for it held no inputs (the call's were never
// recorded: its worker died before its end), so the third attempt read its inputs as changed
// since and sent the write again, a second time at the server.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { shardFleet, workerProcess } from './helpers.ts';

const FIRST = '/api/classes/v1/classes/12/entities/2001';
const SECOND = '/api/classes/v1/classes/12/entities/2002';

test('a write verify read applied at a takeover is not sent again when that attempt is killed too and a third takes the site over', async (t) => {
  // The next PATCH of a path held at the gateway, once, until released: the worker killed meanwhile.
  const holds = new Map<string, { arrived: () => void; released: Promise<void> }>();
  const hold = (path: string) => {
    let arrived!: () => void;
    let release!: () => void;
    const at = new Promise<void>((resolve) => (arrived = resolve));
    holds.set(path, { arrived, released: new Promise<void>((resolve) => (release = resolve)) });
    t.after(release);
    return { at, release };
  };
  const f = await shardFleet(t, 1, '  over: site\n  waves: [rest]', {
    before: async (method, path) => {
      const held = method === 'PATCH' ? [...holds].find(([p]) => path.endsWith(p)) : undefined;
      if (!held) return;
      holds.delete(held[0]);
      held[1].arrived();
      await held[1].released;
    },
  });
  // Two writes per site, each read back by verify (classes/update), then the alerts gate.
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8').replace(
      '    uses: update/system\n    matrix: { site: "${{ vars.sites }}" }\n    server: ${{ matrix.site }}\n    with: { target: prod }\n',
      '    uses: classes/update\n    matrix: { site: "${{ vars.sites }}" }\n    server: ${{ matrix.site }}\n    longest: 1m\n    with: { class: 12, id: 2001, fields: { iemailaddress: new@example.com } }\n' +
        '  - id: second\n    name: "Second update of ${{ matrix.site }}"\n    uses: classes/update\n    matrix: { site: "${{ vars.sites }}" }\n    server: ${{ matrix.site }}\n    longest: 1m\n    with: { class: 12, id: 2002, fields: { iemailaddress: other@example.com } }\n',
    ),
  );
  const run = (await f.shard('--shards', '1')).run;
  const args = ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/1', '--shard-ttl', '3s'];

  // Attempt 1: killed with its first write at the server, which then applies it.
  const first = hold(FIRST);
  const one = workerProcess(args, f.env);
  t.after(() => one.child.kill('SIGKILL'));
  await first.at;
  one.child.kill('SIGKILL');
  await one.done;
  first.release();

  // Attempt 2 (once attempt 1's lease lapsed): verify reads the first write applied, not sent again;
  // killed with its second write at the server, which applies it.
  const second = hold(SECOND);
  const two = workerProcess(args, f.env);
  t.after(() => two.child.kill('SIGKILL'));
  await second.at;
  two.child.kill('SIGKILL');
  const killed = await two.done;
  second.release();
  assert.match(killed.out, /verify: "Update site-0001": applied/, killed.out);
  assert.deepEqual(f.applied(FIRST), { 'site-0001': 1 });

  // Attempt 3: both writes read back applied; neither is sent again.
  // Its own lease long (attempt 2's 3s lapses all the same): a stalled machine never loses it midway.
  const three = await f.worker(run, '1/1', '--shard-ttl', '1h');
  assert.equal(three.code, 0, three.stdout + three.stderr);
  assert.deepEqual(
    { first: f.applied(FIRST), second: f.applied(SECOND) },
    { first: { 'site-0001': 1 }, second: { 'site-0001': 1 } },
    three.stdout + three.stderr,
  );
});
