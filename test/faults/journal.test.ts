// The run journal through the CLI process, against the emulator: after SIGKILL it says which
// calls were sent; `report` renders it (the unanswered update in doubt); `--resume` refuses while
// an instance is in doubt and sends nothing, then skips or retries it as the operator decides; a
// changed file is refused; SIGTERM during a POST shows the step in doubt in every report.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import type { Emulator } from '../../src/emulator/index.ts';
import { CLI, cleanEnv, runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { draft2020, junitProblems } from '../helpers/schemas.ts';

const TOKEN = 'prod-token';
const PIPELINE = `version: 1
name: Release with a journal
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: clear
    uses: transaction-log/clear
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
  - id: sync
    uses: replication/sync
`;

interface Setup {
  dir: string;
  file: string;
  journal: string;
  env: Record<string, string>;
  emulator: Emulator;
  sent: (suffix: string) => number;
}

async function setup(t: TestContext): Promise<Setup> {
  const { url, emulator } = await startEmulator(t);
  // The first vfs update is never answered: the run is stopped while it is in flight.
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', hang: true, times: 1 });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-journal-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  return {
    dir,
    file,
    journal: join(dir, 'run.journal.jsonl'),
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: TOKEN },
    emulator,
    sent: (suffix) => emulator.requests.filter((r) => r.path.endsWith(suffix)).length,
  };
}

/** Runs the pipeline with a journal and sends `signal` once the vfs update reached the server. */
function runUntilUpdate(
  s: Setup,
  signal: NodeJS.Signals,
  extra: string[] = [],
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }> {
  const child = spawn(process.execPath, [CLI, 'run', s.file, '--journal', s.journal, ...extra], {
    env: cleanEnv(s.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (c) => (stdout += c));
  const poll = setInterval(() => {
    if (s.sent('/update/vfs') > 0) {
      clearInterval(poll);
      child.kill(signal);
    }
  }, 10);
  return new Promise((resolve) =>
    child.on('close', (code, sig) => {
      clearInterval(poll);
      resolve({ code, signal: sig, stdout });
    }),
  );
}

type JsonReport = {
  outcome: string;
  counts: { inDoubt: number };
  steps: {
    id: string;
    outcome: string;
    inDoubt: { method: string; path: string } | null;
    resume: string | null;
    error: { code: string; message: string } | null;
  }[];
};

const reportFlags = (dir: string, tag: string) => [
  '--report-json',
  join(dir, `${tag}.json`),
  '--junit',
  join(dir, `${tag}.xml`),
  '--summary',
  join(dir, `${tag}.md`),
  '--html',
  join(dir, `${tag}.html`),
];

async function readReports(
  dir: string,
  tag: string,
): Promise<{ json: JsonReport; junit: string; summary: string; html: string }> {
  const json = JSON.parse(readFileSync(join(dir, `${tag}.json`), 'utf8')) as JsonReport;
  const valid = draft2020('schema/report.schema.json');
  assert.ok(valid(json), JSON.stringify(valid.errors));
  assert.equal(await junitProblems(join(dir, `${tag}.xml`)), undefined);
  return {
    json,
    junit: readFileSync(join(dir, `${tag}.xml`), 'utf8'),
    summary: readFileSync(join(dir, `${tag}.md`), 'utf8'),
    html: readFileSync(join(dir, `${tag}.html`), 'utf8'),
  };
}

function assertInDoubtEverywhere(r: Awaited<ReturnType<typeof readReports>>): void {
  const vfs = r.json.steps.find((s) => s.id === 'vfs')!;
  assert.deepEqual(vfs.inDoubt, { method: 'POST', path: '/api/devops/v1/update/vfs' });
  assert.match(
    vfs.error!.message,
    /POST \/api\/devops\/v1\/update\/vfs: the request was sent; the server may have applied it/,
  );
  assert.equal(r.json.counts.inDoubt, 1);
  assert.match(r.junit, /<failure type="IN_DOUBT" message="[^"]*the request was sent; the server may have applied it"/);
  assert.match(r.summary, /⚠️ \| [^|]*\(in doubt\)/);
  assert.match(r.html, /<span class="badge"[^>]*>in doubt<\/span>/);
}

test(
  'SIGKILL during an update: the journal renders the clear as done and the update in doubt; resume refuses, then skips or retries as told',
  { timeout: 60_000 },
  async (t) => {
    const s = await setup(t);
    const killed = await runUntilUpdate(s, 'SIGKILL');
    assert.equal(killed.signal, 'SIGKILL');
    const journal = readFileSync(s.journal, 'utf8');
    assert.match(
      journal,
      /"t":"send","key":"id:vfs",[^\n]*"path":"\/api\/devops\/v1\/update\/vfs"/,
      'the update was announced before it left',
    );
    assert.equal(journal.includes(TOKEN), false, 'the journal holds no secret');

    const report = await runCli(['report', s.journal, ...reportFlags(s.dir, 'killed')]);
    assert.equal(report.code, 1, report.stdout + report.stderr);
    const killedReports = await readReports(s.dir, 'killed');
    assert.deepEqual(
      killedReports.json.steps.map((x) => x.outcome),
      ['success', 'cancelled', 'cancelled'],
    );
    assert.equal(killedReports.json.steps[2]!.error!.code, 'NOT_STARTED');
    assertInDoubtEverywhere(killedReports);

    // In doubt and undecided: refused, naming the instance and its call; nothing is sent.
    const before = s.emulator.requests.length;
    const refused = await runCli(['run', s.file, '--resume', s.journal], { env: s.env });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /an instance is in doubt: "VFS update prod" \(POST \/api\/devops\/v1\/update\/vfs\)/);
    assert.match(refused.stderr, /--in-doubt skip .* or --in-doubt retry/);
    assert.equal(s.emulator.requests.length, before, 'nothing was sent');

    // A changed file is refused too.
    writeFileSync(join(s.dir, 'changed.yml'), PIPELINE.replace('files: [1001]', 'files: [1002]'));
    const changed = await runCli(['run', join(s.dir, 'changed.yml'), '--resume', s.journal, '--in-doubt', 'skip'], {
      env: s.env,
    });
    assert.equal(changed.code, 2);
    assert.match(changed.stderr, /cannot resume: the pipeline file changed since the journal's run/);

    // Skip: neither the clear nor the update is sent again; the rest runs.
    const skipped = await runCli(
      ['run', s.file, '--resume', s.journal, '--in-doubt', 'skip', ...reportFlags(s.dir, 'resumed')],
      { env: s.env },
    );
    assert.equal(skipped.code, 0, skipped.stdout + skipped.stderr);
    assert.equal(s.sent('/transaction-log/clear'), 1);
    assert.equal(s.sent('/update/vfs'), 1);
    assert.equal(s.sent('/replication/sync'), 1);
    const resumed = await readReports(s.dir, 'resumed');
    assert.deepEqual(
      resumed.json.steps.map((x) => [x.id, x.outcome, x.resume]),
      [
        ['clear', 'success', 'earlier-run'],
        ['vfs', 'skipped', 'earlier-run'],
        ['sync', 'success', 'resumed'],
      ],
    );
    // The journal now ends with the resumed run: its report says success.
    const after = await runCli(['report', s.journal]);
    assert.equal(after.code, 0, after.stdout);
  },
);

test('--in-doubt retry sends the update once more; --force resumes a changed file', { timeout: 60_000 }, async (t) => {
  const s = await setup(t);
  await runUntilUpdate(s, 'SIGKILL');
  const retried = await runCli(['run', s.file, '--resume', s.journal, '--in-doubt', 'retry'], { env: s.env });
  assert.equal(retried.code, 0, retried.stdout + retried.stderr);
  assert.equal(s.sent('/transaction-log/clear'), 1, 'the clear is not sent again');
  assert.equal(s.sent('/update/vfs'), 2, 'the update is sent once more');
  // Everything succeeded: a further resume has nothing to send.
  writeFileSync(s.file, `${PIPELINE}# a comment\n`);
  const forced = await runCli(['run', s.file, '--resume', s.journal, '--force'], { env: s.env });
  assert.equal(forced.code, 0, forced.stdout + forced.stderr);
  assert.equal(s.sent('/update/vfs'), 2);
  assert.equal(s.sent('/replication/sync'), 1);
});

test(
  'SIGTERM during a POST: the step is cancelled after sending, in doubt, in every report and the journal',
  { timeout: 60_000 },
  async (t) => {
    const s = await setup(t);
    const stopped = await runUntilUpdate(s, 'SIGTERM', reportFlags(s.dir, 'term'));
    assert.equal(stopped.code, 143, stopped.stdout);
    assert.match(
      stopped.stdout,
      /cancelled after sending POST \/api\/devops\/v1\/update\/vfs: the request was sent; the server may have applied it/,
    );
    assertInDoubtEverywhere(await readReports(s.dir, 'term'));
    const fromJournal = await runCli(['report', s.journal, ...reportFlags(s.dir, 'journal')]);
    assert.equal(fromJournal.code, 1);
    assertInDoubtEverywhere(await readReports(s.dir, 'journal'));
  },
);

test(
  'a resume that would need a masked output refuses, naming the step; a read-only producer simply runs again',
  { timeout: 60_000 },
  async (t) => {
    const { url, emulator } = await startEmulator(t);
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-journal-masked-'));
    const file = join(dir, 'p.yml');
    const journal = join(dir, 'j.jsonl');
    writeFileSync(
      file,
      `version: 1
steps:
  - id: lic
    uses: licensing/create
    with: { licensee-id: L1, licensee-name: Acme, expiration: "2030-01-01", licenses: [{ product: 1, quantity: 5, type: C }] }
  - id: add
    uses: licensing/add
    with: { code: "\${{ steps.lic.outputs.code }}" }
`,
    );
    const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
    // The add fails once: the code it needs was masked in the journal.
    emulator.faults.add({ method: 'POST', path: '/api/licensing/v1/licenses', status: 409, times: 1 });
    const first = await runCli(['run', file, '--journal', journal], { env });
    assert.equal(first.code, 1, first.stdout);
    const resumed = await runCli(['run', file, '--resume', journal], { env });
    assert.equal(resumed.code, 2);
    assert.match(
      resumed.stderr,
      /step 2 \("Add licenses"\) reads steps\.lic\.outputs\.code, which the journal cannot give back \(it is a secret, masked\), and licensing\/create cannot simply be run again/,
    );

    // A read-only producer of a masked output is simply run again.
    writeFileSync(
      join(dir, 'get.yml'),
      `version: 1
steps:
  - id: get
    name: "Get the user of \${{ secrets.WHO }}"
    uses: classes/get
    with: { id: 2001 }
  - uses: classes/update
    with: { id: 2001, fields: { ifullname: "\${{ steps.get.outputs.entity.iname }} (checked)" } }
`,
    );
    const getJournal = join(dir, 'g.jsonl');
    const withWho = { ...env, WHO: 'jdoe' };
    emulator.faults.add({ method: 'PATCH', path: '/api/classes/v1/entities/2001', status: 409, times: 1 });
    const failed = await runCli(['run', join(dir, 'get.yml'), '--journal', getJournal], { env: withWho });
    assert.equal(failed.code, 1, failed.stdout);
    assert.match(readFileSync(getJournal, 'utf8'), /"t":"end","key":"id:get",.*"masked":\["entity"\]/);
    const again = await runCli(['run', join(dir, 'get.yml'), '--resume', getJournal], { env: withWho });
    assert.equal(again.code, 0, again.stdout + again.stderr);
    // Each run: the classes/get, and the update's read of the entity just before it writes (what verify compares).
    assert.equal(
      emulator.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/entities/2001')).length,
      4,
      'the read-only step ran again',
    );
  },
);

test('every action keeps a journal in RUNNER_TEMP and sets the output journal; report renders it', async (t) => {
  const { runActionBundle } = await import('../helpers/action.ts');
  const { url } = await startEmulator(t);
  const run = await runActionBundle(t, {
    action: 'actions/transaction-log-clear',
    inputs: { url, username: 'admin', password: 'admin' },
  });
  assert.equal(run.code, 0, run.stdout);
  assert.match(run.outputs.journal!, /runner-temp\/.*\.journal\.jsonl$/);
  const rendered = await runCli(['report', run.outputs.journal!]);
  assert.equal(rendered.code, 0, rendered.stdout + rendered.stderr);
  assert.match(rendered.stdout, /✔ \[1\] Clear the transaction log/);
});

test('a credential written inline in a later step is masked in the journal from its first record, also where an earlier step sent it', async (t) => {
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-journal-inline-'));
  // The emulator's PROD accepts the token prod-token; step 1 happens to send the same text.
  writeFileSync(
    join(dir, 'inline.yml'),
    `version: 1
steps:
  - uses: classes/update
    with: { id: 2001, fields: { iemailaddress: ${TOKEN} } }
  - uses: update/vfs
    with: { target: { server: prod-db.example.com, database: PROD, token: ${TOKEN} }, files: [1001] }
`,
  );
  const journal = join(dir, 'j.jsonl');
  const r = await runCli(['run', join(dir, 'inline.yml'), '--journal', journal], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const text = readFileSync(journal, 'utf8');
  assert.match(text, /"t":"send","key":"#[0-9a-f]+","at":\d+,"method":"PATCH"/, 'step 1 sent its update');
  assert.ok(!text.includes(TOKEN), 'no record shows the inline token, the first one included');
  assert.ok(!r.stdout.includes(TOKEN));
});

test("a secret in a write's path never reaches the journal, nor any report of a run killed after it left", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-journal-path-'));
  const SECRET = 'S3cretEntityName';
  const file = join(dir, 'path.yml');
  writeFileSync(
    file,
    `version: 1
steps:
  - id: req
    uses: api/request
    with: { method: DELETE, path: "/api/classes/v1/classes/13/entities/\${{ secrets.ENTITY_SECRET }}" }
`,
  );
  const journal = join(dir, 'j.jsonl');
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', ENTITY_SECRET: SECRET };
  const r = await runCli(['run', file, '--journal', journal], { env });
  assert.ok(
    emulator.requests.some((q) => q.method === 'DELETE' && q.path.endsWith(`/entities/${SECRET}`)),
    'the call went out with the secret in its path',
  );
  assert.ok(!r.stdout.includes(SECRET) && !r.stderr.includes(SECRET), r.stdout + r.stderr);
  const text = readFileSync(journal, 'utf8');
  assert.match(text, /"t":"send",.*"method":"DELETE","path":"\/api\/classes\/v1\/classes\/13\/entities\/\*\*\*"/);
  assert.ok(!text.includes(SECRET), 'no record of the journal holds the secret');
  // Killed right after the write left: every report of that journal names the call, masked.
  const lines = text.split('\n');
  const killed = join(dir, 'killed.jsonl');
  writeFileSync(killed, `${lines.slice(0, lines.findIndex((l) => l.includes('"t":"send"')) + 1).join('\n')}\n`);
  const out = (n: string) => join(dir, n);
  const report = await runCli(
    [
      'report',
      killed,
      '--report-json',
      out('r.json'),
      '--summary',
      out('r.md'),
      '--junit',
      out('r.xml'),
      '--html',
      out('r.html'),
    ],
    { env: {} },
  );
  assert.match(report.stdout + report.stderr, /DELETE \/api\/classes\/v1\/classes\/13\/entities\/\*\*\*/);
  assert.ok(!(report.stdout + report.stderr).includes(SECRET));
  for (const n of ['r.json', 'r.md', 'r.xml', 'r.html']) assert.ok(!readFileSync(out(n), 'utf8').includes(SECRET), n);
});

test('verify of a delete whose path the journal holds masked (a secret named the entity) cannot tell: it never reads the masked path back and calls a 404 there applied', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-journal-path-'));
  const SECRET = 'S3cretEntityName';
  const entity = emulator.state.entities.find((e) => e.ikey === 2011)!;
  entity.iname = SECRET;
  const file = join(dir, 'delete.yml');
  writeFileSync(
    file,
    `version: 1
steps:
  - id: delete
    uses: classes/delete
    with: { class: 13, id: "\${{ secrets.ENTITY_SECRET }}" }
`,
  );
  emulator.faults.add({
    method: 'DELETE',
    path: `/api/classes/v1/classes/13/entities/${SECRET}`,
    hang: true,
    times: 1,
  });
  const journal = join(dir, 'j.jsonl');
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', ENTITY_SECRET: SECRET };
  // Killed while the delete hangs: it never reached the server, the entity is still there.
  const child = spawn(process.execPath, [CLI, 'run', file, '--journal', journal], {
    env: cleanEnv(env),
    stdio: 'ignore',
  });
  const poll = setInterval(() => {
    if (emulator.requests.some((q) => q.method === 'DELETE')) child.kill('SIGKILL');
  }, 10);
  await new Promise((resolve) => child.on('close', resolve));
  clearInterval(poll);
  emulator.faults.clear();
  assert.ok(!readFileSync(journal, 'utf8').includes(SECRET), 'the journal holds no secret');
  const verdict = await runCli(['verify', journal], { env });
  assert.equal(verdict.code, 1, verdict.stdout + verdict.stderr);
  assert.match(verdict.stdout, /^cannot-tell +"Delete an entity" .*the path the journal kept is masked/m);
  assert.ok(!(verdict.stdout + verdict.stderr).includes(SECRET));
});

test('report JOURNAL under GitHub Actions puts the summary in the job summary, as run does (a step after a lost run)', async (t) => {
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-journal-summary-'));
  writeFileSync(join(dir, 'clear.yml'), 'version: 1\nname: Clear\nsteps:\n  - uses: transaction-log/clear\n');
  const journal = join(dir, 'run.journal.jsonl');
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  assert.equal((await runCli(['run', join(dir, 'clear.yml'), '--journal', journal], { env })).code, 0);
  const summary = join(dir, 'step-summary.md');
  writeFileSync(summary, '');
  const r = await runCli(['report', journal], { env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(readFileSync(summary, 'utf8'), /^## ✅ Clear: success/m);
});
