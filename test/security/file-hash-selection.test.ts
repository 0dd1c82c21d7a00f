// The hashes of a pipeline's files (the report's pipeline.sha256, the journal's run record, a shard
// manifest's) are of the file's text with every secret the FILE holds masked, whatever the run
// selects: every server's literal password, not only the selected servers'. A hash that left
// another server's literal password in the clear would be an offline check of a guess of it, a
// static shard worker (which reaches its own sites) would hash the file otherwise than `shard`,
// and a resume with another selection would see a changed file where none changed.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { serve, Sites } from '../../src/emulator/index.ts';
import { ALL_SCOPES } from '../../src/api/scopes.ts';
import { Masker } from '../../src/runner/masker.ts';
import { pipelineSha256 } from '../../src/app/pipeline-input.ts';
import { fileHash, valuesHash } from '../../src/journal/hashing.ts';
import { valuesHashPlain } from '../../src/app/plain-hash.ts';
import { encodeLine } from '../../src/journal/frame.ts';
import { runCli } from '../helpers/cli.ts';

const siteName = (i: number) => `site-${String(i).padStart(4, '0')}`;
/** Each site's own literal password, written in the file. */
const passwordOf = (site: string) => `LitPw-${site.replace('-', '')}-K9q`;

async function literalFleet(
  t: TestContext,
  n: number,
  rollout = '  over: site\n  waves: [rest]\n  max-failures: 1',
  /** A var `note` (given by --var) that each update sends as its message. */
  note = false,
) {
  const names = Array.from({ length: n }, (_, i) => siteName(i + 1));
  const users = names.map((s, i) => ({ name: `u${i + 1}`, password: passwordOf(s), scopes: new Set(ALL_SCOPES) }));
  const sites = new Sites({ users, monitoringRefreshMs: 0 });
  const running = await serve(sites, { port: 0 });
  t.after(() => running.close());
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-hash-'));
  mkdirSync(join(dir, 'store'));
  const file = join(dir, 'fleet.yml');
  writeFileSync(
    file,
    `version: 1
name: Fleet release
vars:
  sites: [${names.join(', ')}]${note ? '\n  note: none' : ''}
servers:
${names.map((s, i) => `  ${s}: { url: "${running.url}/sites/${s}", username: u${i + 1}, password: ${passwordOf(s)} }`).join('\n')}
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
rollout:
${rollout}
steps:
  - id: update
    name: "Update \${{ matrix.site }}"
    uses: update/system
    matrix: { site: "\${{ vars.sites }}" }
    server: \${{ matrix.site }}
    with: { target: prod${note ? ', message: "${{ vars.note }}"' : ''} }
  - id: alerts
    name: "No critical alert at \${{ matrix.site }}"
    uses: monitoring/alerts
    matrix: { site: "\${{ vars.sites }}" }
    server: \${{ matrix.site }}
    with: { fail-on: critical }
`,
  );
  const env = { PROD_TOKEN: 'prod-token' };
  const applied = (path: string) =>
    Object.fromEntries(
      [...sites.started()]
        .map(([name, site]) => [name, site.requests.filter((r) => r.applied && r.path.endsWith(path)).length] as const)
        .filter(([, count]) => count > 0),
    );
  const cli = (args: string[]) => runCli(args, { env });
  return { names, sites, dir, file, storeUrl: `file://${join(dir, 'store')}`, env, cli, applied };
}

/** The file's text with the given secrets masked, hashed as the reports hash it. */
function maskedSha256(file: string, secrets: readonly string[]): string {
  const masker = new Masker();
  for (const s of secrets) masker.add(s);
  return pipelineSha256([{ path: basename(file), text: readFileSync(file, 'utf8') }], (text) => masker.mask(text));
}

const runRecord = (journal: string) =>
  JSON.parse(readFileSync(journal, 'utf8').split('\n')[0]!) as {
    salt: string;
    files: { path: string; hash: string }[];
    sha256?: string;
    varsHash: string;
  };

test('static shards of a fleet whose servers each write their own literal password: every worker runs its sites (the manifest hashes the file as each worker does), every site once', async (t) => {
  const f = await literalFleet(t, 6, '  over: site\n  waves: [[site-0001], 3, rest]\n  max-failures: 1');
  const planned = await f.cli(['shard', f.file, '--store', f.storeUrl, '--shards', '2']);
  assert.equal(planned.code, 0, planned.stdout + planned.stderr);
  const run = /^run (\S+) in /m.exec(planned.stderr)![1]!;
  const specs = ['1/2', '2/2'];
  const workers = await Promise.all(
    specs.map((spec) => f.cli(['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', spec])),
  );
  workers.forEach((w, i) => assert.equal(w.code, 0, `worker ${specs[i]}: ${w.stdout}${w.stderr}`));
  const counts = f.applied('/update/system');
  assert.deepEqual(Object.keys(counts).sort(), f.names);
  assert.ok(
    Object.values(counts).every((c) => c === 1),
    JSON.stringify(counts),
  );
});

test("an --only run's report and journal hash the file as the full run does, every server's literal password masked: no offline check of another server's password", async (t) => {
  const f = await literalFleet(t, 4);
  const all = f.names.map(passwordOf);
  const fullJson = join(f.dir, 'full.json');
  const full = await f.cli(['run', f.file, '--journal', join(f.dir, 'full.jsonl'), '--report-json', fullJson]);
  assert.equal(full.code, 0, full.stdout + full.stderr);
  const oneJson = join(f.dir, 'one.json');
  const oneJournal = join(f.dir, 'one.jsonl');
  const one = await f.cli([
    'run',
    f.file,
    '--only',
    'site=site-0001',
    '--journal',
    oneJournal,
    '--report-json',
    oneJson,
  ]);
  assert.equal(one.code, 0, one.stdout + one.stderr);
  const sha = (path: string) =>
    (JSON.parse(readFileSync(path, 'utf8')) as { pipeline: { sha256: string } }).pipeline.sha256;
  const everyMasked = maskedSha256(f.file, [...all, 'prod-token']);
  assert.equal(sha(fullJson), everyMasked, "the full run's hash: every literal password masked");
  assert.equal(sha(oneJson), everyMasked, "the --only run's hash: every literal password masked, not its site's alone");
  assert.notEqual(sha(oneJson), maskedSha256(f.file, [passwordOf('site-0001'), 'prod-token']));
  const record = runRecord(oneJournal);
  assert.equal(record.sha256, everyMasked, "the journal's sha256");
  assert.equal(runRecord(join(f.dir, 'full.jsonl')).sha256, everyMasked);
  const masker = new Masker();
  for (const s of [...all, 'prod-token']) masker.add(s);
  assert.equal(record.files[0]!.hash, fileHash(record.salt, masker.mask(readFileSync(f.file, 'utf8'))));
});

test('a resume with no selection of an --only journal is told --only changed, never that the file changed', async (t) => {
  const f = await literalFleet(t, 4);
  const journal = join(f.dir, 'one.jsonl');
  const one = await f.cli(['run', f.file, '--only', 'site=site-0001', '--journal', journal]);
  assert.equal(one.code, 0, one.stdout + one.stderr);
  const refused = await f.cli(['run', f.file, '--resume', journal]);
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.doesNotMatch(refused.stderr, /file changed/);
  assert.match(refused.stderr, /cannot resume: --only or --skip changed \(site=site-0001 then\)/);
  const forced = await f.cli(['run', f.file, '--resume', journal, '--force']);
  assert.equal(forced.code, 0, forced.stdout + forced.stderr);
  assert.doesNotMatch(forced.stdout + forced.stderr, /file changed/);
  // site-0001's update was carried; every other site's ran once.
  assert.deepEqual(f.applied('/update/system'), Object.fromEntries(f.names.map((s) => [s, 1])));
});

test('a resume with another selection (--only picks none of the journal instances) names --only, not another pipeline; with --force the selected sites run', async (t) => {
  const f = await literalFleet(t, 4);
  const journal = join(f.dir, 'one.jsonl');
  const one = await f.cli(['run', f.file, '--only', 'site=site-0001', '--journal', journal]);
  assert.equal(one.code, 0, one.stdout + one.stderr);
  const copy = join(f.dir, 'copy.jsonl');
  copyFileSync(journal, copy);
  const refused = await f.cli(['run', f.file, '--only', 'site=site-0002', '--resume', copy]);
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.doesNotMatch(refused.stderr, /another pipeline/);
  assert.match(refused.stderr, /cannot resume: --only or --skip changed \(site=site-0001 then\)/);
  const forced = await f.cli(['run', f.file, '--only', 'site=site-0002', '--resume', copy, '--force']);
  assert.equal(forced.code, 0, forced.stdout + forced.stderr);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1 });
});

/**
 * The journal as enginectl wrote it before the file masker: its run record's file hashes of the
 * text with `secrets` masked (those its selection reached), sealed again (CRC and hash of the files).
 */
function asWrittenBefore(journal: string, file: string, secrets: readonly string[]): void {
  const [first, ...rest] = readFileSync(journal, 'utf8').split('\n');
  const { crc: _crc, ...run } = JSON.parse(first!) as ReturnType<typeof runRecord> & { crc?: string; hash: string };
  const masker = new Masker();
  for (const s of secrets) masker.add(s);
  const files = run.files.map((f) => ({
    path: f.path,
    hash: fileHash(run.salt, masker.mask(readFileSync(file, 'utf8'))),
  }));
  assert.notEqual(files[0]!.hash, run.files[0]!.hash, 'the old hash is not the new one');
  writeFileSync(journal, encodeLine({ ...run, files, hash: valuesHash(run.salt, files) }) + rest.join('\n'));
}

test('a journal written before (its file hashed with the secrets its --only reached masked) resumes with that selection as unchanged: nothing applied is sent again', async (t) => {
  const f = await literalFleet(t, 4);
  const journal = join(f.dir, 'one.jsonl');
  const one = await f.cli(['run', f.file, '--only', 'site=site-0001', '--journal', journal]);
  assert.equal(one.code, 0, one.stdout + one.stderr);
  // The run record as enginectl wrote it before: site-0001's password and the token masked, no other site's.
  asWrittenBefore(journal, f.file, [passwordOf('site-0001'), 'prod-token']);
  const resumed = await f.cli(['run', f.file, '--only', 'site=site-0001', '--resume', journal]);
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.doesNotMatch(resumed.stdout + resumed.stderr, /changed/);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1 });
});

test('a journal written before, resumed with another --only: told --only changed, never that the file changed; with --force the file is the same and the selected site runs', async (t) => {
  // More sites than verify tries every choice of (8): the old hash is found by the selection the journal recorded.
  const f = await literalFleet(t, 10);
  const journal = join(f.dir, 'one.jsonl');
  const one = await f.cli(['run', f.file, '--only', 'site=site-0001', '--journal', journal]);
  assert.equal(one.code, 0, one.stdout + one.stderr);
  asWrittenBefore(journal, f.file, [passwordOf('site-0001'), 'prod-token']);
  const copy = join(f.dir, 'copy.jsonl');
  copyFileSync(journal, copy);
  const refused = await f.cli(['run', f.file, '--only', 'site=site-0002', '--resume', copy]);
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(
    refused.stderr,
    /cannot resume: --only or --skip changed \(site=site-0001 then\) since the journal's run/,
  );
  assert.doesNotMatch(refused.stderr, /file changed/);
  const json = join(f.dir, 'forced.json');
  const forced = await f.cli([
    'run',
    f.file,
    '--only',
    'site=site-0002',
    '--resume',
    copy,
    '--force',
    '--report-json',
    json,
  ]);
  assert.equal(forced.code, 0, forced.stdout + forced.stderr);
  assert.doesNotMatch(forced.stdout + forced.stderr, /file changed/);
  assert.match(
    forced.stdout + forced.stderr,
    /resuming with --force although --only or --skip changed \(site=site-0001 then\):/,
  );
  const report = JSON.parse(readFileSync(json, 'utf8')) as { resumedFrom: { samePipeline: boolean } };
  assert.equal(report.resumedFrom.samePipeline, true, 'the pipeline file is the one that wrote the journal');
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1 });
  // A file that did change is still said changed.
  writeFileSync(f.file, readFileSync(f.file, 'utf8').replace('name: Fleet release', 'name: Fleet release\n# edited'));
  const edited = await f.cli(['run', f.file, '--only', 'site=site-0002', '--resume', journal]);
  assert.equal(edited.code, 2, edited.stdout + edited.stderr);
  assert.match(edited.stderr, /file changed/);
});

test('verify of a journal written before by an --only run of a fleet of more literal passwords than it tries every choice of: the file is the run\'s, not "cannot tell"', async (t) => {
  const f = await literalFleet(t, 10);
  const journal = join(f.dir, 'one.jsonl');
  const one = await f.cli(['run', f.file, '--only', 'site=site-0001', '--journal', journal]);
  assert.equal(one.code, 0, one.stdout + one.stderr);
  asWrittenBefore(journal, f.file, [passwordOf('site-0001'), 'prod-token']);
  // Killed right after its update's send record: the update is in doubt, and verify reads the file.
  const lines = readFileSync(journal, 'utf8').split('\n');
  const sent = lines.findIndex((l) => l.startsWith('{"t":"send"'));
  assert.ok(sent > 0, 'a send record');
  writeFileSync(journal, lines.slice(0, sent + 1).join('\n') + '\n');
  const verified = await f.cli(['verify', journal]);
  assert.doesNotMatch(verified.stderr, /changed since the journal's run/, verified.stdout + verified.stderr);
  assert.equal(verified.stderr, '', 'no word of the file');
});

test('a plan saved before (its file hashed with the secrets its --only reached masked) runs with --plan: the file is not said changed', async (t) => {
  const f = await literalFleet(t, 4);
  const plan = join(f.dir, 'plan.json');
  const made = await f.cli(['plan', f.file, '--live', '--only', 'site=site-0001', '--out', plan]);
  assert.equal(made.code, 0, made.stdout + made.stderr);
  // The plan as enginectl saved it before: site-0001's password and the token masked, no other site's.
  const saved = JSON.parse(readFileSync(plan, 'utf8')) as {
    pipeline: { sha256: string; files: { path: string; sha256: string }[] };
  };
  const old = maskedSha256(f.file, [passwordOf('site-0001'), 'prod-token']);
  assert.notEqual(saved.pipeline.sha256, old);
  saved.pipeline.sha256 = old;
  saved.pipeline.files = saved.pipeline.files.map((file) => ({ path: file.path, sha256: old }));
  writeFileSync(plan, JSON.stringify(saved, null, 2));
  const ran = await f.cli(['run', f.file, '--only', 'site=site-0001', '--plan', plan]);
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  assert.doesNotMatch(ran.stdout + ran.stderr, /changed/);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1 });
  // A file that did change is still said changed.
  writeFileSync(f.file, readFileSync(f.file, 'utf8').replace('name: Fleet release', 'name: Fleet release\n# edited'));
  const stale = await f.cli(['run', f.file, '--only', 'site=site-0001', '--plan', plan]);
  assert.equal(stale.code, 2, stale.stdout + stale.stderr);
  assert.match(stale.stderr, /PLAN_STALE|stale/);
});

test("a --var value holding another site's literal password hashes alike under every --only: a resume with another --only is told --only changed, never that the --var values did; the journal's and the saved plan's hashes are of it masked", async (t) => {
  const f = await literalFleet(t, 4, undefined, true);
  const note = `note=${passwordOf('site-0002')}`;
  const journal = join(f.dir, 'one.jsonl');
  const one = await f.cli(['run', f.file, '--only', 'site=site-0001', '--var', note, '--journal', journal]);
  assert.equal(one.code, 0, one.stdout + one.stderr);
  const record = runRecord(journal);
  assert.equal(record.varsHash, valuesHash(record.salt, { note: '***' }), 'no offline check of the password');
  const copy = join(f.dir, 'copy.jsonl');
  copyFileSync(journal, copy);
  const refused = await f.cli(['run', f.file, '--only', 'site=site-0002', '--var', note, '--resume', copy]);
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(
    refused.stderr,
    /cannot resume: --only or --skip changed \(site=site-0001 then\) since the journal's run/,
  );
  const forced = await f.cli(['run', f.file, '--only', 'site=site-0002', '--var', note, '--resume', copy, '--force']);
  assert.equal(forced.code, 0, forced.stdout + forced.stderr);
  assert.doesNotMatch(forced.stdout + forced.stderr, /--var values/);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1 });
  // The same with a plan saved for --only: its plain hash of the values is no check of the password either.
  const plan = join(f.dir, 'plan.json');
  const made = await f.cli(['plan', f.file, '--live', '--only', 'site=site-0003', '--var', note, '--out', plan]);
  assert.equal(made.code, 0, made.stdout + made.stderr);
  const saved = JSON.parse(readFileSync(plan, 'utf8')) as { varsHash: string };
  assert.equal(saved.varsHash, valuesHashPlain({ note: '***' }), 'no offline check of the password');
  const ran = await f.cli(['run', f.file, '--only', 'site=site-0003', '--var', note, '--plan', plan]);
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
});

test('a journal and a plan written before (their --var values hashed with the secrets the --only reached masked): resumed with that selection, or another with --force, and run with --plan, the values are not said changed', async (t) => {
  const f = await literalFleet(t, 4, undefined, true);
  const note = `note=${passwordOf('site-0002')}`;
  const journal = join(f.dir, 'one.jsonl');
  const one = await f.cli(['run', f.file, '--only', 'site=site-0001', '--var', note, '--journal', journal]);
  assert.equal(one.code, 0, one.stdout + one.stderr);
  // The run record as enginectl wrote it before: site-0001's masker did not know site-0002's password.
  const [first, ...rest] = readFileSync(journal, 'utf8').split('\n');
  const { crc: _crc, ...run } = JSON.parse(first!) as ReturnType<typeof runRecord> & { crc?: string };
  const varsHash = valuesHash(run.salt, { note: passwordOf('site-0002') });
  assert.notEqual(varsHash, run.varsHash);
  writeFileSync(journal, encodeLine({ ...run, varsHash }) + rest.join('\n'));
  const copy = join(f.dir, 'copy.jsonl');
  copyFileSync(journal, copy);
  const same = await f.cli(['run', f.file, '--only', 'site=site-0001', '--var', note, '--resume', journal]);
  assert.equal(same.code, 0, same.stdout + same.stderr);
  assert.doesNotMatch(same.stdout + same.stderr, /changed/);
  const other = await f.cli(['run', f.file, '--only', 'site=site-0002', '--var', note, '--resume', copy, '--force']);
  assert.equal(other.code, 0, other.stdout + other.stderr);
  assert.doesNotMatch(other.stdout + other.stderr, /--var values/);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1 });
  // Another value is still said changed.
  const moved = await f.cli(['run', f.file, '--only', 'site=site-0001', '--var', 'note=other', '--resume', journal]);
  assert.equal(moved.code, 2, moved.stdout + moved.stderr);
  assert.match(moved.stderr, /the --var values changed/);

  const plan = join(f.dir, 'plan.json');
  const made = await f.cli(['plan', f.file, '--live', '--only', 'site=site-0003', '--var', note, '--out', plan]);
  assert.equal(made.code, 0, made.stdout + made.stderr);
  const saved = JSON.parse(readFileSync(plan, 'utf8')) as { varsHash: string };
  saved.varsHash = valuesHashPlain({ note: passwordOf('site-0002') });
  writeFileSync(plan, JSON.stringify(saved, null, 2));
  const ran = await f.cli(['run', f.file, '--only', 'site=site-0003', '--var', note, '--plan', plan]);
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  assert.doesNotMatch(ran.stdout + ran.stderr, /--var values/);
  const differ = await f.cli(['run', f.file, '--only', 'site=site-0003', '--var', 'note=other', '--plan', plan]);
  assert.equal(differ.code, 2, differ.stdout + differ.stderr);
  assert.match(differ.stderr, /the --var values differ/);
});

test("an --only run masks every secret the file holds, not only its selection's: a --var holding another site's literal password is masked in the terminal, the journal, every report and the server's update report", async (t) => {
  const f = await literalFleet(t, 3, undefined, true);
  const other = passwordOf('site-0002');
  const journal = join(f.dir, 'one.jsonl');
  const reports = ['--report-json', join(f.dir, 'one.json'), '--junit', join(f.dir, 'one.xml')];
  const args = ['run', f.file, '--only', 'site=site-0001', '--var', `note=${other}`, '--journal', journal];
  const one = await f.cli([...args, ...reports, '--html', join(f.dir, 'one.html')]);
  assert.equal(one.code, 0, one.stdout + one.stderr);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1 }, 'the update was sent');
  const shown = [
    one.stdout,
    one.stderr,
    ...['one.jsonl', 'one.json', 'one.xml', 'one.html'].map((n) => readFileSync(join(f.dir, n), 'utf8')),
  ];
  shown.forEach((text, i) => assert.ok(!text.includes(other), `channel ${i} shows site-0002's literal password`));
  assert.ok(shown[2]!.includes('***'), 'the journal holds the masked value');
});
