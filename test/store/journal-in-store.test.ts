// The journal in the run store (--store): each call's record is in the store before the call
// leaves, and a run whose runner was lost with its disk is resumed, reported and verified from
// another machine with nothing but the store's URL and the run's id. Here the store is a real
// directory (file:///...); the S3 store's own tests run against Ceph's RADOS Gateway.
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { gatewayInFront } from '../helpers/gateway.ts';

const PIPELINE = `version: 1
name: Stored release
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: clear
    uses: transaction-log/clear
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
`;

async function setup(t: TestContext, before?: (method: string, path: string) => void) {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-store-'));
  const store = join(dir, 'store');
  mkdirSync(store);
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const server = before ? await gatewayInFront(t, url, () => undefined, before) : url;
  const env = { ENGINE_URL: server, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const applied = (suffix: string) => emulator.requests.filter((r) => r.applied && r.path.endsWith(suffix)).length;
  return { dir, store, storeUrl: `file://${store}`, file, env, emulator, applied };
}

/** The records the store holds for the run, in order. */
function storedRecords(store: string): { t: string; key?: string; method?: string; path?: string }[] {
  const runs = join(store, 'runs');
  if (!existsSync(runs)) return [];
  return readdirSync(runs).flatMap((id) => {
    const dir = join(runs, id, 'journal');
    return readdirSync(dir)
      .sort()
      .flatMap((seg) =>
        readFileSync(join(dir, seg), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { t: string }),
      );
  });
}

const runIdOf = (stdout: string) => /^run: (\S+) in /m.exec(stdout)?.[1];

test('a runner lost with its disk: the run is resumed, reported and verified from another machine by the store and the run id alone', async (t) => {
  const s = await setup(t);
  s.emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', reset: 'after', times: 1 });
  const first = await runCli(['run', s.file, '--store', s.storeUrl], { env: s.env });
  assert.equal(first.code, 1, first.stdout + first.stderr);
  const id = runIdOf(first.stdout);
  assert.ok(id, first.stdout);
  // The runner is gone, and its disk: nothing of the run is left but the store.
  for (const f of readdirSync(tmpdir()))
    if (f.startsWith(`enginectl-${id}`)) rmSync(join(tmpdir(), f), { force: true });

  const listed = await runCli(['runs', '--store', s.storeUrl]);
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, new RegExp(`^${id}  \\S+  "Stored release" \\(.*release\\.yml\\)  failure$`, 'm'));
  const report = await runCli(['report', '--store', s.storeUrl, '--run', id!, '--report-json', join(s.dir, 'r.json')]);
  assert.equal(report.code, 1);
  const steps = (
    JSON.parse(readFileSync(join(s.dir, 'r.json'), 'utf8')) as {
      steps: { id: string; outcome: string; inDoubt: unknown }[];
    }
  ).steps;
  assert.deepEqual(
    steps.map((x) => [x.id, x.outcome, x.inDoubt !== null]),
    [
      ['clear', 'success', false],
      ['vfs', 'failure', true],
    ],
  );
  const verified = await runCli(['verify', '--store', s.storeUrl, '--run', id!], { env: s.env });
  assert.match(verified.stdout, /cannot-tell +"VFS update prod"/);

  const refused = await runCli(['run', s.file, '--store', s.storeUrl, '--resume', id!], { env: s.env });
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /in doubt: "VFS update prod"/);
  const resumedJson = join(s.dir, 'resumed.json');
  const resumed = await runCli(
    ['run', s.file, '--store', s.storeUrl, '--resume', id!, '--in-doubt', 'skip', '--report-json', resumedJson],
    { env: s.env },
  );
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.match(resumed.stdout, new RegExp(`run: ${id} in file://.* \\(resumed from the store\\)`));
  // The report names the journal resumed as the store's run, not the runner's temporary copy of it.
  const from = (JSON.parse(readFileSync(resumedJson, 'utf8')) as { resumedFrom: { journal: string } | null })
    .resumedFrom;
  assert.equal(from?.journal, `${s.storeUrl} run ${id}`);
  assert.deepEqual(
    [s.applied('/transaction-log/clear'), s.applied('/update/vfs')],
    [1, 1],
    'nothing applied was sent again',
  );
  // The decision went to the store: a later reader sees it.
  assert.ok(storedRecords(s.store).some((r) => r.t === 'decision'));
  const after = await runCli(['report', '--store', s.storeUrl, '--run', id!]);
  assert.equal(after.code, 0, after.stdout + after.stderr);
});

test(`each write's send record is in the store before the request reaches the server`, async (t) => {
  const problems: string[] = [];
  let store = '';
  const s = await setup(t, (method, path) => {
    if (method === 'GET') return;
    const sends = storedRecords(store).filter((r) => r.t === 'send');
    if (`${sends.at(-1)?.method} ${sends.at(-1)?.path}` !== `${method} ${path}`)
      problems.push(`${method} ${path} reached the server before its send record was in the store`);
  });
  store = s.store;
  const r = await runCli(['run', s.file, '--store', s.storeUrl], { env: s.env });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(problems, []);
  assert.equal(storedRecords(s.store).filter((x) => x.t === 'send').length, 2);
  assert.equal(storedRecords(s.store).at(-1)?.t, 'finish', 'the last records went up too');
});

test(`another writer of the run's journal stops the run before its next call; every report is still written`, async (t) => {
  let store = '';
  const s = await setup(t, (method, path) => {
    // Another runner goes on with the same run: it takes the next segment first.
    if (method !== 'POST' || !path.endsWith('/transaction-log/clear')) return;
    const runs = join(store, 'runs');
    const id = readdirSync(runs)[0]!;
    const dir = join(runs, id, 'journal');
    writeFileSync(join(dir, String(readdirSync(dir).length + 1).padStart(8, '0')), '');
  });
  store = s.store;
  const r = await runCli(['run', s.file, '--store', s.storeUrl, '--report-json', join(s.dir, 'r.json')], {
    env: s.env,
  });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stdout + r.stderr, /another runner writes run/);
  assert.equal(s.applied('/update/vfs'), 0, 'the next call was not sent');
  assert.ok(existsSync(join(s.dir, 'r.json')), 'the report is written');
});

test('a store that cannot be written stops the run before anything is sent, saying which store and why', async (t) => {
  const s = await setup(t);
  // A store under a file: no directory can be made there.
  const r = await runCli(['run', s.file, '--store', `file://${s.file}/store`], { env: s.env });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stderr, /release\.yml\/store: cannot read the directory \(ENOTDIR\)/);
  assert.equal(s.emulator.requests.length, 0);
});

test("a runner without the share: a store's directory that is not there is never made, and the run (and its lease) stops before anything is sent", async (t) => {
  const s = await setup(t);
  // The share's mount point, empty on a runner where it is not mounted: the store is a directory on the share.
  const mountPoint = join(s.dir, 'mnt');
  mkdirSync(mountPoint);
  const root = join(mountPoint, 'enginectl-runs');
  for (const lease of [[], ['--lease', 'fleet']]) {
    const r = await runCli(['run', s.file, '--store', `file://${root}`, ...lease], { env: s.env });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, new RegExp(`enginectl-runs: the store's directory ${root} is not there`));
    assert.match(r.stderr, /hint: mount the share that holds it on this runner, or make it once .*\(mkdir -p /);
    assert.match(r.stderr, /code: STORE_FAILED/);
    assert.deepEqual(
      readdirSync(mountPoint),
      [],
      "nothing made on the runner's own disk: no store, no lease of its own",
    );
    assert.equal(s.emulator.requests.length, 0, 'nothing sent');
  }
  // Once the directory is there (the share mounted), the same command runs.
  mkdirSync(root);
  const r = await runCli(['run', s.file, '--store', `file://${root}`, '--lease', 'fleet'], { env: s.env });
  assert.equal(r.code, 0, r.stdout + r.stderr);
});

test("a share unmounted while a run goes on: the store's directory is never made again on the runner's disk, and the run stops before its next call", async (t) => {
  let root = '';
  let unmounted = false;
  const s = await setup(t, (method, path) => {
    // The share goes away while the first write is at the server: the store's directory with it.
    if (method !== 'POST' || !path.endsWith('/transaction-log/clear') || unmounted) return;
    renameSync(root, `${root}.away`);
    unmounted = true;
  });
  root = s.store;
  const r = await runCli(['run', s.file, '--store', s.storeUrl], { env: s.env });
  assert.ok(unmounted, r.stdout + r.stderr);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stdout + r.stderr, new RegExp(`the store's directory ${s.store} is not there`));
  assert.equal(existsSync(s.store), false, "no store made on the runner's own disk");
  assert.equal(s.applied('/update/vfs'), 0, 'the next call was not sent');
});

test("a store URL naming a file, not a directory: the run stops before anything is sent, saying so, never told to mkdir the file's path", async (t) => {
  const s = await setup(t);
  const r = await runCli(['run', s.file, '--store', `file://${s.file}`], { env: s.env });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stderr, new RegExp(`release\\.yml: the store's directory ${s.file} is not a directory`));
  assert.doesNotMatch(r.stderr, /mkdir -p/);
  assert.match(r.stderr, /code: STORE_FAILED/);
  assert.equal(s.emulator.requests.length, 0, 'nothing sent');
});

test('a run of fences alone (taken over before its first record, the taker stopped before its own) is no run: runs lists the others, report and verify say the store holds no run', async (t) => {
  const s = await setup(t);
  const r = await runCli(['run', s.file, '--store', s.storeUrl], { env: s.env });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const id = runIdOf(r.stdout)!;
  // What a worker's takeover leaves when it dies after its fence: the journal's first segment, empty.
  const fenced = '20991231T000000Z-0f0f0f';
  mkdirSync(join(s.store, 'runs', fenced, 'journal'), { recursive: true });
  writeFileSync(join(s.store, 'runs', fenced, 'journal', '00000001'), '');
  const listed = await runCli(['runs', '--store', s.storeUrl]);
  assert.equal(listed.code, 0, listed.stdout + listed.stderr);
  assert.match(listed.stdout, new RegExp(`^${id}  `, 'm'));
  assert.doesNotMatch(listed.stdout, new RegExp(fenced));
  for (const command of ['report', 'verify']) {
    const refused = await runCli([command, '--store', s.storeUrl, '--run', fenced], { env: s.env });
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(refused.stderr, new RegExp(`holds no run ${fenced}`));
    assert.doesNotMatch(refused.stderr, /\n\s+at /, 'no stack trace');
  }
});
