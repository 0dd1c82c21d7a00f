// The fleet lease's takeover reads the lost holder's calls in doubt back before it goes on: only
// on the server each was sent to. A run whose ENGINE_URL moved since the holder's run (another
// server now) would read the write not there and, once the call's bounds passed, take the lease
// over on a "not applied" that says nothing of the call; the call is "cannot tell" instead, the server moved, and the takeover
// is refused for the operator, nothing sent. The emulators' request logs are the judge.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { CLI, cleanEnv, runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { gatewayInFront } from '../helpers/gateway.ts';

const PIPELINE = (steps: string) => `version: 1
name: Leased release
lease: { name: prod-fleet, ttl: 3s, wait: 60s }
steps:
${steps}`;

const UPDATE = `  - id: update
    uses: classes/update
    longest: 1s
    with: { id: 2001, class: 12, fields: { iemailaddress: new@example.com } }
`;

test("a holder killed mid-update, its lease taken over by a run of its pipeline whose ENGINE_URL moved since: the other server is not read, the call is cannot-tell, the takeover refused; with the holder's URL it reads applied", async (t) => {
  const sent = await startEmulator(t);
  const other = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-lease-moved-'));
  mkdirSync(join(dir, 'store'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE(UPDATE));
  const holder: { child?: ChildProcess } = {};
  // The server applies the update; its answer never reaches the holder: it is killed first.
  const proxy = await gatewayInFront(
    t,
    sent.url,
    (method, path) => {
      if (method === 'PATCH' && path.endsWith('/entities/2001')) holder.child?.kill('SIGKILL');
      return undefined;
    },
    undefined,
  );
  const env = {
    ENGINE_URL: proxy,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    ENGINECTL_STORE: pathToFileURL(join(dir, 'store')).href,
  };
  const child = spawn(process.execPath, [CLI, 'run', file], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  holder.child = child;
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const killed = await new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('close', (_, signal) => resolve(signal)),
  );
  assert.equal(killed, 'SIGKILL', out);
  const applied = () => sent.emulator.requests.filter((r) => r.applied && r.path.endsWith('/entities/2001')).length;
  assert.equal(applied(), 1);

  // The same pipeline run anew with ENGINE_URL moved: its takeover reads the call back. Read on the other
  // server, it would say not applied once the call's send bound and longest: passed (here, still too soon).
  const moved = await runCli(['run', file], { env: { ...env, ENGINE_URL: other.url } });
  assert.equal(moved.code, 2, moved.stdout + moved.stderr);
  assert.equal(other.emulator.requests.length, 0, 'the other server was neither read nor written');
  assert.match(
    moved.stderr,
    /calls verify cannot tell: "Update an entity" \(PATCH [^)]+\): cannot-tell: server default is \S+ here, \S+ in the run that sent its call in doubt/,
  );
  assert.match(moved.stderr, /LEASE_TAKEOVER_REFUSED/);
  assert.doesNotMatch(moved.stdout + moved.stderr, /not-applied/);

  // Another pipeline of the fleet, the holder's URL: it reads the server the call went to.
  const gate = join(dir, 'gate.yml');
  writeFileSync(gate, PIPELINE('  - uses: monitoring/alerts\n    with: { fail-on: none }\n'));
  const taken = await runCli(['run', gate], { env });
  assert.equal(taken.code, 0, taken.stdout + taken.stderr);
  assert.match(taken.stdout + taken.stderr, /"Update an entity" \(PATCH [^)]+\): applied/);
  assert.equal(applied(), 1);
});
