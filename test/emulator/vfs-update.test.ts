// A vfs update "updates or inserts vfs files on the target" (api 4.4), sending them from the
// source: afterwards the target holds the source's file. A target file at another version than
// the source's, newer as well as older, is updated to the source's; one at the source's version
// is left as it is (unchanged); one the target lacks is inserted.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startEmulator } from '../helpers/emulator.ts';

const basic = `Basic ${Buffer.from('admin:admin').toString('base64')}`;
const prod = { targetDBName: 'PROD', targetServer: 'prod-db.example.com', targetAuthToken: 'prod-token' };

interface State {
  databases: { name: string; vfsFiles: Record<string, number> }[];
}

test("a target file newer than the source's is updated to the source's version, not left as it is", async (t) => {
  const { url } = await startEmulator(t);
  const state = (await (await fetch(`${url}/_emulator/state`)).json()) as State;
  // PROD: 1001 at v9 (the source has v3), 1003 at v5 (as the source), no 1004 (the source has v1).
  state.databases.find((d) => d.name === 'PROD')!.vfsFiles = { '1001': 9, '1002': 2, '1003': 5 };
  const put = await fetch(`${url}/_emulator/state`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(state),
  });
  assert.equal(put.status, 204);
  const res = await fetch(`${url}/api/devops/v1/update/vfs`, {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/json' },
    body: JSON.stringify({ ...prod, files: [1001, 1003, 1004] }),
  });
  assert.equal(res.status, 200);
  const result = (await res.json()) as {
    success: boolean;
    summary: string;
    report: string;
    stats: { numInserts: number; numUpdates: number; operations: Record<string, number> };
  };
  assert.equal(result.success, true);
  assert.equal(result.summary, '3 vfs file(s) on PROD: 1 inserted, 1 updated, 1 unchanged');
  assert.deepEqual([result.stats.numInserts, result.stats.numUpdates], [1, 1]);
  assert.match(result.report, /\| 1001 \| \/reports\/sales\/summary\.rpt \| 9 \| 3 \| updated \|/);
  assert.match(result.report, /\| 1003 \| \/scripts\/post-update\.js \| 5 \| 5 \| unchanged \|/);
  const after = (await (await fetch(`${url}/_emulator/state`)).json()) as State;
  assert.deepEqual(after.databases.find((d) => d.name === 'PROD')!.vfsFiles, {
    '1001': 3,
    '1002': 2,
    '1003': 5,
    '1004': 1,
  });
});
