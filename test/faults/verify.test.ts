// enginectl verify and run --resume --in-doubt verify read the target back to decide an in-doubt
// write. Each case runs a write to its end against the emulator, then takes the journal a kill
// right after the write left would leave (cut after its send record: what the write-ahead journal
// holds at that point, whatever the machine's speed). With the emulator's state as the write left
// it, verify must say applied; with the state put back as it was before the run, not applied: the
// emulator's own state is the judge.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { encodeLine } from '../../src/journal/frame.ts';
import { simulatedClock } from '../../src/app/clock.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { assertClean, pageText } from '../helpers/secrets.ts';
import { ALL_SCOPES } from '../../src/api/scopes.ts';
import { REFRESH_MS } from '../../src/emulator/engine-view.ts';

const HEAD = `version: 1
name: Verify
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
`;

/** The emulator's clock starts a minute before a refresh of monitoring, unless `phase` (ms past a refresh) says otherwise. */
async function setup(t: TestContext, steps: string, phase = -REFRESH_MS / 2) {
  // The emulator's clock: a call the journal ages is as old at the server (monitoring refreshed since).
  // It starts a minute before a refresh of monitoring (every 2 minutes), so once 3 minutes have passed
  // the Engines' data is fresh whatever the wall clock's phase: how fresh it is otherwise depends on
  // the minute the test runs (verify rightly cannot tell on data up to 2 minutes old). The run and
  // verify read the machine's clock, which the emulator's passes by 3 minutes between them: verify
  // counts on the machines' clocks, which say less, and names them (journal/since-call.ts).
  const clock = simulatedClock(Math.floor(Date.now() / REFRESH_MS) * REFRESH_MS + phase);
  const { url, emulator } = await startEmulator(t, { now: clock.now });
  const before = structuredClone(emulator.state);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-verify-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, HEAD + steps);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const journal = join(dir, 'run.journal.jsonl');
  const full = await runCli(['run', file, '--journal', journal], { env });
  assert.equal(full.code, 0, full.stdout + full.stderr);
  const sent = (suffix: string, method: string) =>
    emulator.requests.filter((r) => r.path.endsWith(suffix) && r.method === method).length;
  return { dir, file, env, emulator, before, journal, sent, cwd: dir, clock };
}

type Rec = { t: string; key?: string; at?: number };
const records = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Rec);

/** The journal as a kill right after the write of `key` left leaves it; `age` moves the call into the past. */
function killedAfterSend(journal: string, key: string, age = 0): string {
  const all = records(journal);
  const at = all.findIndex((r) => r.t === 'send' && r.key === key);
  assert.ok(at >= 0, `a send record of ${key}`);
  const kept = all.slice(0, at + 1).map((r, i) => {
    const { crc: _crc, ...rest } = r as Rec & { crc?: string };
    return i === at ? { ...rest, at: rest.at! - age } : rest;
  });
  const to = `${journal}.${key.replace(/\W/g, '')}.${age}.jsonl`;
  writeFileSync(to, kept.map((r) => encodeLine(r)).join(''));
  return to;
}

const verify = (s: { env: Record<string, string> }, journal: string) => runCli(['verify', journal], { env: s.env });

const CASES: {
  uses: string;
  key: string;
  steps: string;
  applied: RegExp;
  notApplied: RegExp;
  /** Put back, the state proves nothing (a license has no id or version): cannot tell, exit 1. */
  putBackCannotTell?: boolean;
}[] = [
  {
    uses: 'licensing/add',
    key: 'id:add',
    steps: `  - id: code
    uses: licensing/create
    with: { licensee-id: ACME-001, licensee-name: ACME Corp, expiration: "2027-12-31", licenses: [{ product: 3, quantity: 5, type: connection }] }
  - id: add
    uses: licensing/add
    with: { code: "\${{ steps.code.outputs.code }}" }
    longest: 1m
`,
    applied:
      /^applied +"Add licenses" \(POST \/api\/licensing\/v1\/licenses\): CRM \(product 3, connection 5, until 2027-12-31\): the license the code holds \(as "Create a license code" asked for it\), not there just before the call, there now$/m,
    notApplied:
      /^cannot-tell +"Add licenses" .*: product 3 has no license, as just before the call, and not the one the code holds \(product 3, connection 5, until 2027-12-31, as "Create a license code" asked for it\); but a license has no id, version or creation time, so the one the code holds, added and removed since \(or replaced by the license of before\), reads the same: check on the server, then decide \(skip or retry\)$/m,
    putBackCannotTell: true,
  },
  {
    uses: 'licensing/remove',
    key: 'id:remove',
    steps: '  - id: remove\n    uses: licensing/remove\n    with: { key: 2 }\n    longest: 1m\n',
    applied:
      /^applied +.*GET \/api\/licensing\/v1\/licenses\/2 answers 404: product 2 has no license now \(it had one just before the call\)$/m,
    notApplied:
      /^cannot-tell +.*answers 200: product 2 has Payroll \(product 2, nominalUser 25, until \d{4}-\d\d-\d\d\), the same in every field as just before the call; but a license has no id, version or creation time, so one removed and added again since reads the same: check on the server, then decide \(skip or retry\)$/m,
    putBackCannotTell: true,
  },
  {
    uses: 'classes/create',
    key: 'id:create',
    steps:
      '  - id: create\n    uses: classes/create\n    with: { class: 12, fields: { iname: mnew, ifullname: Mary New } }\n    longest: 1m\n',
    applied:
      /^applied +"Create an entity" .*: entity \d+ with iname=mnew, ifullname=Mary New: 0 such just before the call, 1 now$/m,
    notApplied:
      /^not-applied +.*0 entities with iname=mnew, ifullname=Mary New, as just before the call, and no entity of the class was created since \(3m(?:[1-9]\d?s)? after the call, past the step's longest: 1m(?:; counted on the two machines' clocks[^)]*)?\)$/m,
  },
  {
    uses: 'classes/update',
    key: 'id:update',
    steps:
      '  - id: update\n    uses: classes/update\n    with: { id: 2001, class: 12, fields: { iemailaddress: new@example.com } }\n    longest: 1m\n',
    applied:
      /^applied +"Update an entity" \(PATCH \/api\/classes\/v1\/classes\/12\/entities\/2001\): iemailaddress hold the written values$/m,
    notApplied:
      /^not-applied +.*: iemailaddress still hold the values of just before the call \(3m(?:[1-9]\d?s)? after the call, past the step's longest: 1m(?:; counted on the two machines' clocks[^)]*)?\)$/m,
  },
  {
    uses: 'classes/delete',
    key: 'id:delete',
    steps: '  - id: delete\n    uses: classes/delete\n    with: { id: 2011, class: 13 }\n    longest: 1m\n',
    applied: /^applied +.*answers 404: the entity is gone$/m,
    notApplied:
      /^not-applied +.*answers 200: the entity is still there \(3m(?:[1-9]\d?s)? after the call, past the step's longest: 1m(?:; counted on the two machines' clocks[^)]*)?\)$/m,
  },
  {
    uses: 'update/system',
    key: 'id:system',
    steps:
      '  - id: system\n    uses: update/system\n    with: { target: prod, source: { server: main-db.example.com, database: MAIN, token: main-token } }\n    longest: 1m\n',
    applied:
      /^applied +"System update prod" .*: the Engines of PROD moved since just before the call: eng-prod-01 26\.10\.3 -> 26\.11\.0, eng-prod-02 26\.10\.3 -> 26\.11\.0$/m,
    notApplied:
      /^not-applied +"System update prod" \(POST [^)]+\): eng-prod-01 26\.10\.3, eng-prod-02 26\.10\.3 still report a version other than the source's 26\.11\.0 \(3m(\d+s)? after the call, past the step's longest: 1m(?:; counted on the two machines' clocks[^)]*)?\)$/m,
  },
];

for (const c of CASES) {
  test(`verify decides an in-doubt ${c.uses} by reading the target: applied, and ${c.putBackCannotTell ? 'cannot tell' : 'not applied'} once the state is put back`, async (t) => {
    const s = await setup(t, c.steps);
    const gets = s.emulator.requests.length;
    const killed = killedAfterSend(s.journal, c.key, 3 * 60_000);
    await s.clock.sleep(3 * 60_000, new AbortController().signal);
    const applied = await verify(s, killed);
    assert.equal(applied.code, 0, applied.stdout + applied.stderr);
    assert.match(applied.stdout, c.applied);
    assert.match(applied.stdout, /1 in doubt: 1 applied, 0 not applied, 0 cannot tell/);
    assert.deepEqual(
      s.emulator.requests.slice(gets).filter((r) => r.method !== 'GET'),
      [],
      'verify only reads',
    );

    s.emulator.state = structuredClone(s.before);
    const notApplied = await verify(s, killed);
    assert.equal(notApplied.code, c.putBackCannotTell ? 1 : 0, notApplied.stdout + notApplied.stderr);
    assert.match(notApplied.stdout, c.notApplied);
  });
}

test("verify on Engines last reported before the step's longest: had passed since the call says the data is too old and when it will not be, never a time already past", async (t) => {
  // 45s past a refresh: 3 minutes on, the Engines' data is 1m45s old, from before the call's longest: 1m had passed.
  const system = CASES.find((c) => c.uses === 'update/system')!;
  const s = await setup(t, system.steps, 45_000);
  const killed = killedAfterSend(s.journal, system.key, 3 * 60_000);
  await s.clock.sleep(3 * 60_000, new AbortController().signal);
  s.emulator.state = structuredClone(s.before);
  const stale = await verify(s, killed);
  assert.equal(stale.code, 1, stale.stdout + stale.stderr);
  const line = /^cannot-tell +"System update prod" .*$/m.exec(stale.stdout)?.[0] ?? '';
  assert.match(
    line,
    /still report a version other than the source's 26\.11\.0, 3m(\d+s)? after the call(?:; counted on the two machines' clocks[^;]*)?; what was read is as of (\S+) \(the target's last report\), before the step's longest: 1m had passed since the latest the call can have left \(30s after its record\): verify again once the target reports after (\S+)$/,
  );
  const [, asOf, after] = /as of (\S+) .* reports after (\S+)$/.exec(line)!;
  assert.ok(Date.parse(asOf!) < Date.parse(after!), line);
  assert.doesNotMatch(line, /verify again after /, 'no time already past to wait for');
});

test('verify of an update/system sent with disable-engine-restart cannot tell: the Engines keep reporting their running version, which does not show it', async (t) => {
  const s = await setup(
    t,
    '  - id: system\n    uses: update/system\n    with: { target: prod, source: { server: main-db.example.com, database: MAIN, token: main-token }, disable-engine-restart: true }\n    longest: 1m\n',
  );
  const killed = killedAfterSend(s.journal, 'id:system', 3 * 60_000);
  await s.clock.sleep(3 * 60_000, new AbortController().signal);
  // The update ran (the emulator's state is as it left it): the Engines, not restarted, still run 26.10.3.
  const read = await verify(s, killed);
  assert.equal(read.code, 1, read.stdout + read.stderr);
  assert.match(
    read.stdout,
    /^cannot-tell +"System update prod" .*: the update was sent with disableEngineRestart: the Engines' versions do not show it \(eng-prod-01 26\.10\.3, eng-prod-02 26\.10\.3\)$/m,
  );
});

test('verify cannot tell an update/system within the 2 minutes monitoring lags, nor a vfs update, sync or clear, which the API cannot show (exit 1)', async (t) => {
  const s = await setup(
    t,
    `  - id: system
    uses: update/system
    with: { target: prod, source: { server: main-db.example.com, database: MAIN, token: main-token } }
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
`,
  );
  s.emulator.state = structuredClone(s.before);
  const fresh = await verify(s, killedAfterSend(s.journal, 'id:system'));
  assert.equal(fresh.code, 1);
  assert.match(
    fresh.stdout,
    /^cannot-tell +"System update prod" .*: eng-prod-01 26\.10\.3, eng-prod-02 26\.10\.3 against the source's 26\.11\.0, [\dms.]+ after the call: monitoring lags up to 2 minutes; verify again after /m,
  );
  const vfs = await verify(s, killedAfterSend(s.journal, 'id:vfs'));
  assert.equal(vfs.code, 1);
  assert.match(
    vfs.stdout,
    /^cannot-tell +"VFS update prod" .*: an update\/vfs cannot be verified through the API: check on the server, then decide/m,
  );
  // What to do next, for a journal no parked run holds: a resume deciding them (never `decide`, which takes parked runs only).
  assert.match(
    vfs.stdout,
    /^then: check on the server, then resume deciding: enginectl run \S+ --resume \S+ --in-doubt skip \(applied\) or retry \(sent again\)$/m,
  );
});

test('run --resume --in-doubt verify skips what was applied with the evidence in every report; what was not applied is sent again only with verify-and-retry', async (t) => {
  const s = await setup(
    t,
    '  - id: update\n    uses: classes/update\n    with: { id: 2001, class: 12, fields: { iemailaddress: new@example.com } }\n    longest: 1m\n',
  );
  const killed = killedAfterSend(s.journal, 'id:update');
  const patches = () => s.sent('/entities/2001', 'PATCH');
  const sentBefore = patches();
  const skipped = await runCli(
    [
      'run',
      s.file,
      '--resume',
      killed,
      '--in-doubt',
      'verify',
      '--report-json',
      join(s.dir, 'v.json'),
      '--summary',
      join(s.dir, 'v.md'),
    ],
    { env: s.env },
  );
  assert.equal(skipped.code, 0, skipped.stdout + skipped.stderr);
  assert.equal(patches(), sentBefore, 'an applied write is not sent again');
  assert.match(skipped.stdout, /verify: "Update an entity": applied: iemailaddress hold the written values/);
  const step = (
    JSON.parse(readFileSync(join(s.dir, 'v.json'), 'utf8')) as {
      steps: { id: string; decision: { decision: string; verdict: string; evidence: string } }[];
    }
  ).steps[0]!;
  assert.deepEqual(
    [step.decision.decision, step.decision.verdict, step.decision.evidence],
    ['skip', 'applied', 'iemailaddress hold the written values'],
  );
  assert.match(
    readFileSync(join(s.dir, 'v.md'), 'utf8'),
    /in doubt: verify read the target: applied \(iemailaddress hold the written values\); not sent again/,
  );
  assert.match(
    readFileSync(killed, 'utf8'),
    /"t":"decision","key":"id:update","decision":"skip","by":"[^"]+","at":\d+,"verdict":"applied"/,
  );

  // Not applied: verify alone stops before sending anything; verify-and-retry sends it once.
  const again = killedAfterSend(s.journal, 'id:update', 3 * 60_000);
  s.emulator.state = structuredClone(s.before);
  const stopped = await runCli(['run', s.file, '--resume', again, '--in-doubt', 'verify'], { env: s.env });
  assert.equal(stopped.code, 2, stopped.stdout);
  assert.match(
    stopped.stderr,
    /enginectl: cannot resume: verify could not settle an in-doubt call: "Update an entity" \(PATCH [^)]+\): not-applied: iemailaddress still hold/,
  );
  assert.match(stopped.stderr, / {2}hint: resume with --in-doubt verify-and-retry/);
  assert.equal(patches(), sentBefore);
  const retried = await runCli(
    ['run', s.file, '--resume', again, '--in-doubt', 'verify-and-retry', '--report-json', join(s.dir, 'r.json')],
    { env: s.env },
  );
  assert.equal(retried.code, 0, retried.stdout + retried.stderr);
  assert.equal(patches(), sentBefore + 1, 'sent again once');
  assert.equal(s.emulator.state.entities.find((e) => e.ikey === 2001)?.iemailaddress, 'new@example.com');
  const decision = (
    JSON.parse(readFileSync(join(s.dir, 'r.json'), 'utf8')) as {
      steps: { decision: { decision: string; verdict: string } }[];
    }
  ).steps[0]!.decision;
  assert.deepEqual([decision.decision, decision.verdict], ['retry', 'not-applied']);
});

test('verify never calls an update not applied when the entity was written since: applied, then written back, it cannot tell, and verify-and-retry does not send it again', async (t) => {
  const s = await setup(
    t,
    '  - id: update\n    uses: classes/update\n    with: { id: 2001, class: 12, fields: { iemailaddress: new@example.com } }\n    longest: 1m\n',
  );
  const killed = killedAfterSend(s.journal, 'id:update', 3 * 60_000);
  // The write was applied; another write (a later step, another operator) puts the field back.
  const old = s.before.entities.find((e) => e.ikey === 2001)!.iemailaddress;
  const back = await fetch(`${s.env.ENGINE_URL}/api/classes/v1/classes/12/entities/2001`, {
    method: 'PATCH',
    headers: { authorization: `Basic ${btoa('admin:admin')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ iemailaddress: old }),
  });
  assert.equal(back.status, 200);
  const patches = () => s.sent('/entities/2001', 'PATCH');
  const sentBefore = patches();
  const verdict = await verify(s, killed);
  assert.equal(verdict.code, 1, verdict.stdout + verdict.stderr);
  assert.match(
    verdict.stdout,
    /^cannot-tell +"Update an entity" .*: iemailaddress hold the values of just before the call again, but the entity was written since \(version \d+ then, \d+ now\): the write may have been applied and written back/m,
  );
  const resumed = await runCli(['run', s.file, '--resume', killed, '--in-doubt', 'verify-and-retry'], {
    env: s.env,
  });
  assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
  assert.match(resumed.stderr, /verify could not settle an in-doubt call: "Update an entity" .*: cannot-tell/);
  assert.equal(patches(), sentBefore, 'not sent again');
});

test('verify of a delete by name reads which entity the name names: one created since under that name is not the one deleted, so the delete is applied and verify-and-retry does not delete the new one', async (t) => {
  const s = await setup(
    t,
    `  - id: make
    uses: classes/create
    with: { class: 30, fields: { iname: REL-CUR, irelease: "1", itarget: prod, ioutcome: success, imessage: old } }
  - id: delete
    uses: classes/delete
    with: { class: 30, id: REL-CUR }
    longest: 1m
`,
  );
  const killed = killedAfterSend(s.journal, 'id:delete', 3 * 60_000);
  // Deleted; then a new entity under the same name (a later step, another job).
  const made = await fetch(`${s.env.ENGINE_URL}/api/classes/v1/classes/30/entities`, {
    method: 'POST',
    headers: { authorization: `Basic ${btoa('admin:admin')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ iname: 'REL-CUR', irelease: '2', itarget: 'prod', ioutcome: 'success', imessage: 'new' }),
  });
  assert.ok(made.ok, String(made.status));
  const verdict = await verify(s, killed);
  assert.equal(verdict.code, 0, verdict.stdout + verdict.stderr);
  assert.match(
    verdict.stdout,
    /^applied +"Delete an entity" .*: the entity it named \(\d+ just before the call\) is gone: REL-CUR now names entity \d+, created since$/m,
  );
  const deletes = () => s.sent('/entities/REL-CUR', 'DELETE');
  const sentBefore = deletes();
  const resumed = await runCli(['run', s.file, '--resume', killed, '--in-doubt', 'verify-and-retry'], {
    env: s.env,
  });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.equal(deletes(), sentBefore, 'not sent again');
  assert.equal(s.emulator.state.entities.filter((e) => e.iname === 'REL-CUR').length, 1, 'the new one is kept');
});

test('verify says not applied of an update or a delete only when the version (iversion) proves nothing was written since: an entity without one, or deleted and inserted again under its key, cannot tell', async (t) => {
  // An update of an entity whose iversion is null (unset): put back as before, nothing proves it was not written.
  const s = await setup(
    t,
    '  - id: update\n    uses: classes/update\n    with: { id: 2001, class: 12, fields: { iemailaddress: new@example.com } }\n    longest: 1m\n  - id: delete\n    uses: classes/delete\n    with: { id: 2011, class: 13 }\n    longest: 1m\n',
  );
  const unversioned = structuredClone(s.before);
  for (const e of unversioned.entities) if (e.ikey === 2001) e.iversion = null;
  s.emulator.state = structuredClone(unversioned);
  const update = killedAfterSend(s.journal, 'id:update', 3 * 60_000);
  const snapshot = records(update).find((r) => r.t === 'snapshot' && r.key === 'id:update') as Rec & {
    value: { iversion: unknown };
  };
  snapshot.value.iversion = null;
  const { crc: _crc, ...rest } = snapshot as Rec & { crc?: string };
  writeFileSync(
    update,
    records(update)
      .map((r) => {
        const { crc: _c, ...plain } = r as Rec & { crc?: string };
        return encodeLine(r.t === 'snapshot' && r.key === 'id:update' ? rest : plain);
      })
      .join(''),
  );
  const unknown = await verify(s, update);
  assert.equal(unknown.code, 1, unknown.stdout + unknown.stderr);
  assert.match(
    unknown.stdout,
    /^cannot-tell +"Update an entity" .*: iemailaddress hold the values of just before the call, but the entity has no version \(iversion\) to tell whether it was written since/m,
  );
  // A delete: the entity is back under its key, at another version (deleted, then inserted again).
  const again = structuredClone(s.before);
  for (const e of again.entities) if (e.ikey === 2011) e.iversion = (Number(e.iversion) || 0) + 5;
  s.emulator.state = again;
  const deleted = await verify(s, killedAfterSend(s.journal, 'id:delete', 3 * 60_000));
  assert.equal(deleted.code, 1, deleted.stdout + deleted.stderr);
  assert.match(
    deleted.stdout,
    /^cannot-tell +"Delete an entity" .*: GET \S+ answers 200, but its version moved since \(\d+ then, \d+ now\): nothing says it is the entity just before the call/m,
  );
});

test('verify of a delete whose read before the write failed never says not applied: the snapshot is the read failed (warned), and an entity under its key again may have been deleted and inserted again, so verify-and-retry does not delete it a second time', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-verify-'));
  const file = join(dir, 'release.yml');
  writeFileSync(
    file,
    `${HEAD}  - id: delete\n    uses: classes/delete\n    with: { id: 2011, class: 13 }\n    longest: 1m\n`,
  );
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const s = { env };
  const journal = join(dir, 'run.journal.jsonl');
  const entity = structuredClone(emulator.state.entities.find((e) => e.ikey === 2011)!);
  // The read before the write answers 503 (every retry); the delete is applied behind a gateway's 504.
  emulator.faults.add({ method: 'GET', path: '/api/classes/v1/classes/13/entities/2011', status: 503 });
  emulator.faults.add({ method: 'DELETE', path: '/api/classes/v1/classes/13/entities/2011', gateway: 504, times: 1 });
  const run = await runCli(['run', file, '--journal', journal], { env });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(run.stdout + run.stderr, /could not read the target before the write \(.*503.*\)/);
  const snapshot = records(journal).find((r) => r.t === 'snapshot') as Rec & { error?: string; value?: unknown };
  assert.ok(snapshot && 'error' in snapshot && !('value' in snapshot), JSON.stringify(snapshot));
  emulator.faults.clear();
  assert.equal(emulator.state.entities.filter((e) => e.ikey === 2011).length, 0, 'the delete was applied');
  // A replication puts it back under its key, at another version.
  emulator.state.entities.push({ ...entity, iversion: (Number(entity.iversion) || 0) + 5 });
  const killed = killedAfterSend(journal, 'id:delete', 3 * 60_000);
  const verdict = await verify(s, killed);
  assert.equal(verdict.code, 1, verdict.stdout + verdict.stderr);
  assert.match(verdict.stdout, /^cannot-tell +"Delete an entity" .*no snapshot says .*just before the call/m);
  const deletes = () => emulator.requests.filter((r) => r.method === 'DELETE').length;
  const sentBefore = deletes();
  const resumed = await runCli(['run', file, '--resume', killed, '--in-doubt', 'verify-and-retry'], { env });
  assert.notEqual(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.equal(deletes(), sentBefore, 'not deleted a second time');
  assert.equal(emulator.state.entities.filter((e) => e.ikey === 2011).length, 1, 'the entity put back is kept');
});

test('verify asks the environment only for what its reads need: nothing when nothing is in doubt; the servers of the instances in doubt, never a target token nor another server; a write in doubt that sent the target token is read without it, and the token is in no output, report or journal in any encoding', async (t) => {
  const clock = simulatedClock(Math.floor(Date.now() / 120_000) * 120_000 + 45_000);
  const { url, emulator } = await startEmulator(t, { now: clock.now });
  // A target token of its own, with characters that URL, base64, JSON and HTML each spell otherwise.
  const TOKEN = 'Tgt/T0ken+&<x>=9';
  emulator.state.databases.find((d) => d.name === 'PROD')!.tokens = [TOKEN];
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-verify-'));
  const file = join(dir, 'release.yml');
  writeFileSync(
    file,
    `version: 1
name: Verify
servers:
  a: { url: "\${{ env.ENGINE_URL }}", username: admin, password: "\${{ secrets.A_PASSWORD }}" }
  b: { url: "\${{ env.ENGINE_URL }}", username: admin, password: "\${{ secrets.B_PASSWORD }}" }
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: update
    uses: classes/update
    server: a
    with: { id: 2001, class: 12, fields: { iemailaddress: new@example.com } }
    longest: 1m
  - id: system
    uses: update/system
    server: a
    with: { target: prod, source: { server: main-db.example.com, database: MAIN, token: main-token } }
    longest: 1m
  - id: vfs
    uses: update/vfs
    server: b
    with: { target: prod, files: [1001] }
`,
  );
  const env = { ENGINE_URL: url, A_PASSWORD: 'admin', B_PASSWORD: 'admin', PROD_TOKEN: TOKEN };
  const journal = join(dir, 'run.journal.jsonl');
  const full = await runCli(['run', file, '--journal', journal], { env });
  // The updates succeeded: each sent the target token, and PROD took it.
  assert.equal(full.code, 0, full.stdout + full.stderr);

  // Nothing in doubt: said, with no server, secret or variable given.
  const clean = await runCli(['verify', journal], { env: {} });
  assert.equal(clean.code, 0, clean.stdout + clean.stderr);
  assert.equal(clean.stdout, `nothing is in doubt in ${journal}\n`);
  assert.equal(clean.stderr, '');

  // The update in doubt: read on its server (a) with a's credentials alone.
  const killed = killedAfterSend(journal, 'id:update');
  const requests = emulator.requests.length;
  const { B_PASSWORD: _b, PROD_TOKEN: _p, ...only } = env;
  const read = await runCli(['verify', killed], { env: only });
  assert.equal(read.code, 0, read.stdout + read.stderr);
  assert.match(read.stdout, /^applied +"Update an entity" \(PATCH [^)]+\): iemailaddress hold the written values$/m);
  assert.deepEqual(
    emulator.requests.slice(requests).map((r) => r.method),
    ['GET'],
    'verify only reads',
  );
  // Its own server's credentials are still asked for.
  const { A_PASSWORD: _a, ...without } = env;
  const missing = await runCli(['verify', killed], { env: without });
  assert.equal(missing.code, 2, missing.stdout + missing.stderr);
  assert.match(missing.stderr, /secrets\.A_PASSWORD is not set/);

  // The system update in doubt, 3 minutes on (monitoring refreshed): its call sent the target
  // token, and verify reads the Engines without it, on a's credentials alone.
  const system = killedAfterSend(journal, 'id:system', 3 * 60_000);
  await clock.sleep(3 * 60_000, new AbortController().signal);
  const sent = records(system).find((r) => r.t === 'send' && r.key === 'id:system') as Rec & { body?: unknown };
  assert.match(JSON.stringify(sent?.body), /"targetAuthToken":"\*+"/, 'the write in doubt sent the target token');
  const outputs: [string, string][] = [];
  const withoutToken = await runCli(['verify', system], { env: only });
  outputs.push(['verify without the token', withoutToken.stdout + withoutToken.stderr]);
  assert.equal(withoutToken.code, 0, withoutToken.stdout + withoutToken.stderr);
  assert.match(
    withoutToken.stdout,
    /^applied +"System update prod" \(POST \/api\/devops\/v1\/update\/system\): the Engines of PROD moved since just before the call/m,
  );
  // Given the token (every secret in the environment, as a CI job has them), verify shows it nowhere either.
  const withToken = await runCli(['verify', system], { env });
  outputs.push(['verify with the token', withToken.stdout + withToken.stderr]);
  assert.equal(withToken.code, 0, withToken.stdout + withToken.stderr);
  // The resume that acts on verify's reading: the evidence in every report and in the journal, the token in none.
  const reports = {
    '--report-json': join(dir, 'r.json'),
    '--junit': join(dir, 'r.xml'),
    '--html': join(dir, 'r.html'),
    '--summary': join(dir, 'r.md'),
  };
  const resumed = await runCli(
    ['run', file, '--resume', system, '--in-doubt', 'verify', ...Object.entries(reports).flat()],
    { env },
  );
  outputs.push(['the resume', resumed.stdout + resumed.stderr]);
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.match(readFileSync(reports['--report-json'], 'utf8'), /the Engines of PROD moved since just before the call/);
  for (const [flag, path] of Object.entries(reports)) {
    const text = readFileSync(path, 'utf8');
    outputs.push([flag, flag === '--html' ? `${text}\n${pageText(text)}` : text]);
  }
  for (const path of [journal, killed, system]) outputs.push([path, readFileSync(path, 'utf8')]);
  for (const [channel, text] of outputs) assertClean(channel, text, [TOKEN]);
});

test("verify compares the pipeline file with its run's hash as the run made it, every secret masked: what the file writes literally (another server's password, a target's token) and a secret verify is given are no change; a file edited since is said changed; without a secret whose value the file writes, verify says it cannot tell, never that the file changed, and shows no secret", async (t) => {
  const users = ['b-deployer', 'sa-deployer', 'sb-deployer'].map((name) => ({
    name,
    password: `${name}-pw-literal`,
    scopes: new Set(ALL_SCOPES),
  }));
  const { url } = await startEmulator(t, { users });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-verify-'));
  const file = join(dir, 'release.yml');
  // A secret whose value the file also writes literally (a tracking id that is the release note).
  const NOTE = 'release-note-7f3a9c';
  writeFileSync(
    file,
    `version: 1
name: Verify
servers:
  a: { url: "\${{ env.ENGINE_URL }}", username: admin, password: "\${{ secrets.A_PASSWORD }}" }
  b: { url: "\${{ env.ENGINE_URL }}", username: b-deployer, password: b-deployer-pw-literal }
targets:
  lit: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - id: update
    uses: classes/update
    server: a
    with: { id: 2001, class: 12, fields: { iemailaddress: new@example.com } }
    longest: 1m
  - id: system
    uses: update/system
    server: b
    with: { target: lit, message: "\${{ secrets.NOTE }}", tracking-id: ${NOTE} }
`,
  );
  const env = { ENGINE_URL: url, A_PASSWORD: 'admin', NOTE };
  const journal = join(dir, 'run.journal.jsonl');
  const full = await runCli(['run', file, '--journal', journal], { env });
  assert.equal(full.code, 0, full.stdout + full.stderr);
  const killed = killedAfterSend(journal, 'id:update');
  const secrets = ['b-deployer-pw-literal', 'prod-token', NOTE, 'admin'];

  // Every secret given: the file is the run's, whatever its reads need.
  const given = await runCli(['verify', killed], { env });
  assert.equal(given.code, 0, given.stdout + given.stderr);
  assert.equal(given.stderr, '', 'no word of a change');
  // Only what its reads need (server a): the literal credentials are the file's own; NOTE's value,
  // written in the file, was masked in the run's hash and verify is not given it: it cannot tell.
  const { NOTE: _n, ...reads } = env;
  const needed = await runCli(['verify', killed], { env: reads });
  assert.equal(needed.code, 0, needed.stdout + needed.stderr);
  assert.doesNotMatch(needed.stderr, /warning: \S+release\.yml changed since/, 'not said changed');
  assert.match(
    needed.stderr,
    /^enginectl: warning: cannot tell whether \S+release\.yml changed since the journal's run: the run hashed it with the value of secrets\.NOTE masked, which verify is not given \(its reads do not need it\): give it to compare; its servers are read as they are now$/m,
  );
  assertClean('verify given what its reads need', needed.stdout + needed.stderr, secrets);

  // Edited since: changed, with every secret given.
  writeFileSync(file, `${readFileSync(file, 'utf8')}# edited\n`);
  const edited = await runCli(['verify', killed], { env });
  assert.match(
    edited.stderr,
    /^enginectl: warning: \S+release\.yml changed since the journal's run: its servers are read as they are now$/m,
  );
  assertClean('verify of an edited file', edited.stdout + edited.stderr, secrets);

  // A run limited to one site (--only) masked that site's literal password alone: verify, which
  // learns every site's from the file, still finds the file the run's.
  const sites = join(dir, 'sites.yml');
  writeFileSync(
    sites,
    `version: 1
name: Sites
servers:
  sa: { url: "\${{ env.ENGINE_URL }}", username: sa-deployer, password: sa-deployer-pw-literal }
  sb: { url: "\${{ env.ENGINE_URL }}", username: sb-deployer, password: sb-deployer-pw-literal }
steps:
  - id: update
    uses: classes/update
    matrix: { site: [sa, sb] }
    server: \${{ matrix.site }}
    with: { id: 2001, class: 12, fields: { iemailaddress: new@example.com } }
    longest: 1m
`,
  );
  const limited = join(dir, 'sites.journal.jsonl');
  const one = await runCli(['run', sites, '--journal', limited, '--only', 'site=sa'], { env: { ENGINE_URL: url } });
  assert.equal(one.code, 0, one.stdout + one.stderr);
  const key = records(limited).find((r) => r.t === 'send')!.key!;
  const site = await runCli(['verify', killedAfterSend(limited, key)], { env: { ENGINE_URL: url } });
  assert.equal(site.code, 0, site.stdout + site.stderr);
  assert.equal(site.stderr, '', 'no word of a change');
});
