// The inputs a single-step action shares with the root action (webhook, journal, in-doubt,
// continue-rollout, store, lease, continue): each is read as the root action reads it, never
// passed to the step as one of its inputs (where the step's schema refused it: "Unrecognized key").
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { ExitCode } from '../../src/errors.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';

const CLEAR = actionDef('transaction-log-clear');
const PATH = '/api/devops/v1/transaction-log/clear';

test("transaction-log-clear: webhook, journal with in-doubt and continue-rollout, store and lease are the run's inputs, not the step's", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const received: string[] = [];
  const hook = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => (received.push(body), res.writeHead(204).end()));
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  t.after(() => hook.close());
  const server = { url, username: 'admin', password: 'admin' };

  const first = await runActionInProcess(CLEAR, {
    inputs: { ...server, webhook: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook?token=s3cret` },
  });
  assert.equal(first.code, ExitCode.ok, [...first.failed, ...first.errors.map((e) => e.message)].join('\n'));
  assert.equal(received.length, 1, 'the webhook got the report');
  assert.equal(JSON.parse(received[0]!).outcome, 'success');

  const resumed = await runActionInProcess(CLEAR, {
    inputs: { ...server, journal: first.outputs.journal!, 'in-doubt': 'skip', 'continue-rollout': 'true' },
  });
  assert.equal(resumed.code, ExitCode.ok, [...resumed.failed, ...resumed.errors.map((e) => e.message)].join('\n'));
  assert.equal(emulator.count('POST', PATH), 1, 'resumed from the journal: the clear that succeeded is not sent again');

  const store = join(mkdtempSync(join(tmpdir(), 'enginectl-step-store-')), 'store');
  mkdirSync(store);
  const stored = await runActionInProcess(CLEAR, { inputs: { ...server, store: `file://${store}`, lease: 'ilog' } });
  assert.equal(stored.code, ExitCode.ok, [...stored.failed, ...stored.errors.map((e) => e.message)].join('\n'));
  assert.match(stored.outputs['run-id']!, /\S/, 'the run is kept in the store');
  assert.equal(emulator.count('POST', PATH), 2);
});
