// "Not applied" needs proof: verify answers it only from evidence that rules the effect out. A
// target that shows no effect proves nothing while the write may still run at the server (which
// the API cannot show), nor when the server may have stored a written field otherwise. Each case
// runs the write to its end against the emulator, then takes the journal a kill right after the
// write left would leave, its call moved into the past; the emulator's state is the judge.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { encodeLine } from '../../src/journal/frame.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import type { Emulator } from '../../src/emulator/index.ts';

const HEAD = `version: 1
name: Proof
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
`;

async function setup(t: TestContext, steps: string, prepare?: (emulator: Emulator) => void) {
  const { url, emulator } = await startEmulator(t);
  prepare?.(emulator);
  const before = structuredClone(emulator.state);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-proof-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, HEAD + steps);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const journal = join(dir, 'run.journal.jsonl');
  const full = await runCli(['run', file, '--journal', journal], { env });
  assert.equal(full.code, 0, full.stdout + full.stderr);
  return { dir, file, env, emulator, before, journal };
}

type Rec = { t: string; key?: string; at?: number; crc?: string };

/** The journal a kill right after the write of `key` left would leave, its call `age` ms in the past. */
function killedAfterSend(journal: string, key: string, age: number): string {
  const all = readFileSync(journal, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Rec);
  const at = all.findIndex((r) => r.t === 'send' && r.key === key);
  assert.ok(at >= 0);
  const kept = all.slice(0, at + 1).map(({ crc: _crc, ...r }, i) => (i === at ? { ...r, at: r.at! - age } : r));
  const to = `${journal}.${age}.jsonl`;
  writeFileSync(to, kept.map((r) => encodeLine(r)).join(''));
  return to;
}

const SYSTEM = `  - id: system
    uses: update/system
    timeout: 5s
    with: { target: prod, source: { server: main-db.example.com, database: MAIN, token: main-token } }
`;

test(`verify cannot tell a system update that may still run: Engines on the old version minutes after the call are no proof without the step's longest:`, async (t) => {
  const s = await setup(t, SYSTEM);
  // The update is still running at the server: the Engines report the old version until their restart.
  s.emulator.state = structuredClone(s.before);
  const killed = killedAfterSend(s.journal, 'id:system', 3 * 60_000);
  const verified = await runCli(['verify', killed], { env: s.env });
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.match(
    verified.stdout,
    /^cannot-tell +"System update prod" .*still report a version other than the source's 26\.11\.0, (?:2m5\ds|3m(\d+s)?) after the call; the API cannot show a write still running at the server: declare longest: on the step/m,
  );
  const updates = () =>
    s.emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/update/system')).length;
  const sent = updates();
  const retried = await runCli(['run', s.file, '--resume', killed, '--in-doubt', 'verify-and-retry'], { env: s.env });
  assert.equal(retried.code, 2, retried.stdout + retried.stderr);
  assert.match(retried.stderr, /cannot-tell/);
  assert.equal(updates(), sent, 'a second update is not sent while the first may run');

  // With the bound declared and passed, the old version is proof: not applied, and sent once more.
  writeFileSync(s.file, HEAD + SYSTEM.replace('timeout: 5s', 'timeout: 5s\n    longest: 2m'));
  const proven = await runCli(['verify', killed], { env: s.env });
  assert.match(
    proven.stdout,
    /^not-applied +"System update prod" .*\((?:2m5\ds|3m(\d+s)?) after the call, past the step's longest: 2m\)$/m,
  );
  const early = await runCli(['verify', killedAfterSend(s.journal, 'id:system', 60_000)], { env: s.env });
  assert.match(early.stdout, /^cannot-tell /m, "within monitoring's lag and the bound: cannot tell");
});

test('verify cannot tell a create whose entity the server stored with a field otherwise; verify-and-retry creates no duplicate', async (t) => {
  const s = await setup(
    t,
    `  - id: create
    uses: classes/create
    longest: 1m
    with: { class: 12, fields: { iname: mnew, ifullname: Mary New, iversion: 7 } }
`,
  );
  const created = () => s.emulator.state.entities.filter((e) => e.iname === 'mnew').length;
  assert.equal(created(), 1, 'the server made it, at iversion 1 (it computes the version)');
  const killed = killedAfterSend(s.journal, 'id:create', 3 * 60_000);
  const verified = await runCli(['verify', killed], { env: s.env });
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.match(
    verified.stdout,
    /^cannot-tell +"Create an entity" .*no entity with iname=mnew, ifullname=Mary New, iversion=7, but entity \d+ was created since just before the call: the server may store a written field otherwise/m,
  );
  const retried = await runCli(['run', s.file, '--resume', killed, '--in-doubt', 'verify-and-retry'], { env: s.env });
  assert.equal(retried.code, 2, retried.stdout + retried.stderr);
  assert.equal(created(), 1, 'no duplicate');
  // Put back as before the run: no entity was created at all, and the bound has passed: not applied.
  s.emulator.state = structuredClone(s.before);
  const proven = await runCli(['verify', killed], { env: s.env });
  assert.match(proven.stdout, /^not-applied +"Create an entity" .*no entity of the class was created since/m);
});

test('verify cannot tell a PATCH right after the kill: it may still be pending at the server', async (t) => {
  const s = await setup(
    t,
    `  - id: update
    uses: classes/update
    longest: 1m
    with: { id: 2001, class: 12, fields: { iemailaddress: new@example.com } }
`,
  );
  s.emulator.state = structuredClone(s.before);
  const fresh = await runCli(['verify', killedAfterSend(s.journal, 'id:update', 0)], { env: s.env });
  assert.equal(fresh.code, 1, fresh.stdout + fresh.stderr);
  assert.match(
    fresh.stdout,
    /^cannot-tell +"Update an entity" .*iemailaddress still hold the values of just before the call, .* after the call; the step's longest: 1m has not passed since the latest the call can have left \(30s after its record\): verify again after \d{4}-/m,
  );
});

test("verify counts from the latest the call can have left (its record's time and the 30 s a write may be handed to the network after it), not from its record: past its longest from the record but not from then, a PATCH is not proven not applied", async (t) => {
  const s = await setup(
    t,
    `  - id: update
    uses: classes/update
    longest: 1m
    with: { id: 2001, class: 12, fields: { iemailaddress: new@example.com } }
`,
  );
  s.emulator.state = structuredClone(s.before);
  const within = await runCli(['verify', killedAfterSend(s.journal, 'id:update', 85_000)], { env: s.env });
  assert.equal(within.code, 1, within.stdout + within.stderr);
  assert.match(
    within.stdout,
    /^cannot-tell +"Update an entity" .*the step's longest: 1m has not passed since the latest the call can have left \(30s after its record\)/m,
  );
  const past = await runCli(['verify', killedAfterSend(s.journal, 'id:update', 95_000)], { env: s.env });
  assert.match(past.stdout, /^not-applied +"Update an entity" /m);
});

test("verify reads the step's own longest:, found by its identity, not by its place: a step inserted before it since the run lends it no bound", async (t) => {
  const s = await setup(t, SYSTEM);
  s.emulator.state = structuredClone(s.before);
  const killed = killedAfterSend(s.journal, 'id:system', 3 * 60_000);
  // A step with a bound of its own now stands where the update stood; the update, unchanged, has none.
  writeFileSync(
    s.file,
    HEAD +
      `  - id: contact
    uses: classes/update
    longest: 1m
    with: { id: 2001, class: 12, fields: { iemailaddress: new@example.com } }
` +
      SYSTEM,
  );
  const verified = await runCli(['verify', killed], { env: s.env });
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.match(verified.stdout, /^cannot-tell +"System update prod" .*declare longest: on the step/m);
  const updates = () =>
    s.emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/update/system')).length;
  const sent = updates();
  const retried = await runCli(['run', s.file, '--resume', killed, '--force', '--in-doubt', 'verify-and-retry'], {
    env: s.env,
  });
  assert.equal(retried.code, 2, retried.stdout + retried.stderr);
  assert.match(retried.stderr, /cannot-tell/);
  assert.equal(updates(), sent, 'a second update is not sent while the first may run');
});

test('verify never calls not applied a write its journal holds answered 2xx, its step killed before its end: the entity deleted since is no proof, and verify-and-retry creates no second one', async (t) => {
  const s = await setup(
    t,
    `  - id: create
    uses: classes/create
    longest: 1m
    with: { class: 12, fields: { iname: mnew, ifullname: Mary New } }
`,
  );
  // Killed right after the answer (201) was recorded, before the step's end; its call 3 minutes ago.
  const all = readFileSync(s.journal, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Rec & { status?: number });
  const answer = all.findIndex((r) => r.t === 'answer' && r.key === 'id:create');
  assert.equal(all[answer]?.status, 201);
  const killed = `${s.journal}.answered.jsonl`;
  writeFileSync(
    killed,
    all
      .slice(0, answer + 1)
      .map(({ crc: _crc, ...r }) => encodeLine(r.t === 'send' ? { ...r, at: r.at! - 3 * 60_000 } : r))
      .join(''),
  );
  // Someone deleted the entity since: the class holds what it held before the call.
  s.emulator.state = structuredClone(s.before);
  const verified = await runCli(['verify', killed], { env: s.env });
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.match(verified.stdout, /^cannot-tell +"Create an entity" .*answered 201/m);
  const created = () => s.emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/entities')).length;
  const sent = created();
  const retried = await runCli(['run', s.file, '--resume', killed, '--in-doubt', 'verify-and-retry'], { env: s.env });
  assert.equal(retried.code, 2, retried.stdout + retried.stderr);
  assert.equal(created(), sent, 'no second create');
});

test("verify counts monitoring's 2-minute lag from the latest a system update can have left, not from its record: 2m10s after the record, Engines on the old version are no proof", async (t) => {
  const s = await setup(t, SYSTEM.replace('timeout: 5s', 'timeout: 5s\n    longest: 30s'));
  s.emulator.state = structuredClone(s.before);
  const killed = killedAfterSend(s.journal, 'id:system', 130_000);
  const verified = await runCli(['verify', killed], { env: s.env });
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.match(verified.stdout, /^cannot-tell +"System update prod" .*monitoring lags up to 2 minutes/m);
});

test('verify cannot tell a system update sent with disable-engine-update from the Engines: their old version is no proof', async (t) => {
  const s = await setup(
    t,
    SYSTEM.replace('timeout: 5s', 'timeout: 5s\n    longest: 2m').replace(
      'with: { target: prod,',
      'with: { target: prod, disable-engine-update: true,',
    ),
  );
  s.emulator.state = structuredClone(s.before);
  const verified = await runCli(['verify', killedAfterSend(s.journal, 'id:system', 3 * 60_000)], { env: s.env });
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.match(verified.stdout, /^cannot-tell +"System update prod" .*sent with disableEngineUpdate/m);
});

test("verify cannot tell a system update to a database whose Engines ran the source's version already: nothing moved is no proof", async (t) => {
  const s = await setup(t, SYSTEM.replace('timeout: 5s', 'timeout: 5s\n    longest: 2m'), (emulator) => {
    for (const e of emulator.state.engines) if (e.mainDatabase === 'PROD') e.version = '26.11.0';
  });
  const verified = await runCli(['verify', killedAfterSend(s.journal, 'id:system', 3 * 60_000)], { env: s.env });
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.match(verified.stdout, /^cannot-tell +"System update prod" .*cannot tell whether the update ran/m);
});

test("verify cannot tell a system update whose source the step does not name: the other databases' Engines are no proof of the source's version, and verify-and-retry sends nothing again", async (t) => {
  // The source is the database the API runs on (MAIN), whose Engine is not reporting; PROD's Engines
  // run the release already, so the update (which moved PROD's schema) left them as they were.
  // STAGING alone is left to guess the source's version from: 26.10.3, which proves nothing.
  const s = await setup(
    t,
    `  - id: system
    uses: update/system
    longest: 1m
    with: { target: prod }
`,
    (emulator) => {
      for (const e of emulator.state.engines) {
        if (e.mainDatabase === 'MAIN') Object.assign(e, { reporting: false, updatedAt: Date.now() - 3_600_000 });
        if (e.mainDatabase === 'PROD') e.version = '26.11.0';
      }
    },
  );
  const updates = () =>
    s.emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/update/system') && r.applied).length;
  assert.equal(updates(), 1, 'the update was applied');
  const killed = killedAfterSend(s.journal, 'id:system', 3 * 60_000);
  const verified = await runCli(['verify', killed], { env: s.env });
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.match(
    verified.stdout,
    /^cannot-tell +"System update prod" .*the step names no source database: .*name it in the step's source input for verify to compare/m,
  );
  const retried = await runCli(['run', s.file, '--resume', killed, '--in-doubt', 'verify-and-retry'], { env: s.env });
  assert.equal(retried.code, 2, retried.stdout + retried.stderr);
  assert.equal(updates(), 1, 'not sent a second time');
});

test("verify cannot tell a system update to a database whose Engines run a version newer than the named source's: they would not move to it", async (t) => {
  const s = await setup(t, SYSTEM.replace('timeout: 5s', 'timeout: 5s\n    longest: 1m'), (emulator) => {
    for (const e of emulator.state.engines) if (e.mainDatabase === 'PROD') e.version = '26.12.0';
  });
  // Put back as before the run: Engines ahead of the source, unmoved, prove nothing either way.
  s.emulator.state = structuredClone(s.before);
  const verified = await runCli(['verify', killedAfterSend(s.journal, 'id:system', 3 * 60_000)], { env: s.env });
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.match(
    verified.stdout,
    /^cannot-tell +"System update prod" .*eng-prod-01 26\.12\.0, eng-prod-02 26\.12\.0 run a version newer than the source's 26\.11\.0/m,
  );
});

test('verify cannot tell a system update from Engines whose monitoring data is older than the call: they stopped reporting before it, listed still with their old version; verify-and-retry sends nothing again', async (t) => {
  const s = await setup(t, SYSTEM.replace('timeout: 5s', 'timeout: 5s\n    longest: 1m'), (emulator) => {
    for (const e of emulator.state.engines)
      if (e.mainDatabase === 'PROD' && e.instanceId !== 'eng-prod-old')
        Object.assign(e, { reporting: false, updatedAt: Date.now() - 60_000 });
  });
  const applied = () =>
    s.emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/update/system') && r.applied).length;
  assert.equal(applied(), 1);
  // Monitoring still lists them (an Engine is online 5 minutes after its last report), as they were before the call.
  for (const e of s.emulator.state.engines)
    if (e.mainDatabase === 'PROD' && e.instanceId !== 'eng-prod-old')
      Object.assign(e, { version: '26.10.3', updatedAt: Date.now() - 4 * 60_000 });
  const killed = killedAfterSend(s.journal, 'id:system', 3 * 60_000);
  const verified = await runCli(['verify', killed], { env: s.env });
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.match(verified.stdout, /^cannot-tell +"System update prod" .*monitoring data .*before the call/m);
  const retried = await runCli(['run', s.file, '--resume', killed, '--in-doubt', 'verify-and-retry'], { env: s.env });
  assert.equal(retried.code, 2, retried.stdout + retried.stderr);
  assert.equal(applied(), 1, 'not sent a second time');
});

test("verify reads when the Engines last reported by the server's clock, not this machine's: a server 4 minutes ahead, its Engines stopped before the call, is no proof; verify-and-retry sends nothing again", async (t) => {
  const serverNow = () => Date.now() + 4 * 60_000;
  const { url, emulator } = await startEmulator(t, { now: serverNow });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-proof-skew-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, HEAD + SYSTEM.replace('timeout: 5s', 'timeout: 5s\n    longest: 1m'));
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const journal = join(dir, 'run.journal.jsonl');
  assert.equal((await runCli(['run', file, '--journal', journal], { env })).code, 0);
  const applied = () =>
    emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/update/system') && r.applied).length;
  // The Engines stopped reporting 3.5 minutes ago (by the server's clock), before the call, listed with their old version.
  for (const e of emulator.state.engines)
    if (e.mainDatabase === 'PROD' && e.instanceId !== 'eng-prod-old')
      Object.assign(e, { reporting: false, version: '26.10.3', updatedAt: serverNow() - 210_000 });
  const killed = killedAfterSend(journal, 'id:system', 3 * 60_000);
  const verified = await runCli(['verify', killed], { env });
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  assert.match(verified.stdout, /^cannot-tell +"System update prod" .*was sent before the call could have left/m);
  const retried = await runCli(['run', file, '--resume', killed, '--in-doubt', 'verify-and-retry'], { env });
  assert.equal(retried.code, 2, retried.stdout + retried.stderr);
  assert.equal(applied(), 1, 'not sent a second time');
});
