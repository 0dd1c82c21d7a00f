// A saved live plan: plan --live --out F, then run --plan F, which reads again (GET requests only)
// what the plan saw and refuses to run stale, naming each difference.
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { ALL_SCOPES } from '../../src/api/scopes.ts';
import { ERROR_CODES } from '../../src/error-codes.ts';

const PIPELINE = `version: 1
name: Release with a saved plan
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - uses: monitoring/alerts
    with: { fail-on: critical }
  - uses: update/system
    with: { target: prod }
  - uses: monitoring/engines
    with: { min-online: 1 }
`;

async function setup(t: Parameters<typeof startEmulator>[0]) {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-saved-plan-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const plan = join(dir, 'plan.json');
  const made = await runCli(['plan', file, '--live', '--out', plan], { env });
  assert.equal(made.code, 0, made.stdout + made.stderr);
  assert.match(made.stdout, /^plan: .*plan\.json \(run it with enginectl run .* --plan .*\)$/m);
  return { emulator, dir, file, env, plan };
}

test('run --plan runs a plan whose state has not moved; the saved plan holds no secret', async (t) => {
  const s = await setup(t);
  const saved = readFileSync(s.plan, 'utf8');
  assert.doesNotMatch(saved, /prod-token|admin:admin/);
  assert.match(
    saved,
    /"a write; the Engines of PROD: eng-prod-01 26\.10\.3 -> 26\.11\.0, eng-prod-02 26\.10\.3 -> 26\.11\.0/,
  );
  const r = await runCli(['run', s.file, '--plan', s.plan], { env: s.env });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(s.emulator.requests.filter((q) => q.method === 'POST').length, 1, 'the update was sent, once');
});

test('run --plan refuses a stale plan (exit 2) naming each difference, and sends no write', async (t) => {
  const s = await setup(t);
  // Since the plan: a critical alert, and an Engine of the target moved.
  s.emulator.state.alerts.push({
    severity: 'critical',
    code: 'replica_lag',
    message: 'REPLICA-2 is 3 hours behind',
    engineId: 'eng-prod-02',
  });
  const engine = s.emulator.state.engines.find((e) => e.instanceId === 'eng-prod-02')!;
  engine.version = '26.10.4';
  const r = await runCli(['run', s.file, '--plan', s.plan], { env: s.env });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /--plan .*plan\.json: the saved plan of \S+ is stale:/);
  assert.match(
    r.stderr,
    /- \[1\/3\] Alerts: alert critical replica_lag on eng-prod-02 raised \(REPLICA-2 is 3 hours behind\): it held then, and failed now$/m,
  );
  assert.match(r.stderr, /- \[2\/3\] System update prod: eng-prod-02 moved from 26\.10\.3 to 26\.10\.4$/m);
  // What to do is one wording, the table's, naming the commands as the BAD_PLAN hint does.
  const [, hint] = /\n {2}hint: (.*)\n {2}code: PLAN_STALE\n$/.exec(r.stderr) ?? assert.fail(r.stderr);
  assert.equal(hint, ERROR_CODES.PLAN_STALE.action);
  assert.match(
    hint!,
    /^review what moved since the plan was saved, then make the plan again \(enginectl plan FILE --live --out F\)/,
  );
  assert.deepEqual(
    s.emulator.requests.filter((q) => q.method !== 'GET'),
    [],
    'nothing was written',
  );

  // Another file, other vars: stale too.
  writeFileSync(
    s.file,
    PIPELINE.replace('name: Release with a saved plan', 'name: Release with a saved plan\nvars: { n: 1 }'),
  );
  const changed = await runCli(['run', s.file, '--plan', s.plan], { env: s.env });
  assert.equal(changed.code, 2);
  assert.match(changed.stderr, /- the pipeline file changed \(.*release\.yml\)$/m);
  const bad = await runCli(['run', s.file, '--plan', s.file], { env: s.env });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--plan .*release\.yml: not JSON/);
});

test('run --plan names what went since the plan: an Engine that stopped reporting, a license removed; it sends nothing', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-saved-plan-'));
  const file = join(dir, 'release.yml');
  writeFileSync(
    file,
    `version: 1
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - uses: licensing/check
  - uses: monitoring/engines
    with: { min-online: 1 }
  - uses: update/system
    with: { target: prod }
`,
  );
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const plan = join(dir, 'plan.json');
  assert.equal((await runCli(['plan', file, '--live', '--out', plan], { env })).code, 0);
  // Since the plan: eng-prod-02 has not reported for 10 minutes (offline), Payroll's license is gone.
  const engine = emulator.state.engines.find((e) => e.instanceId === 'eng-prod-02')!;
  engine.reporting = false;
  engine.updatedAt = Date.now() - 10 * 60_000;
  emulator.state.licenses = emulator.state.licenses.filter((l) => l.productName !== 'Payroll');
  emulator.requests.length = 0;
  const r = await runCli(['run', file, '--plan', plan], { env });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /- \[1\/3\] Check licenses: license of Payroll \([^)]*\) removed$/m);
  assert.match(
    r.stderr,
    /- \[2\/3\] Engines online: eng-prod-02 went offline \(stopped reporting; it ran 26\.10\.3\)$/m,
  );
  assert.match(r.stderr, /- \[3\/3\] System update prod: eng-prod-02 went offline/m);
  assert.ok(emulator.requests.length > 0, 'the state was read again');
  assert.deepEqual(
    emulator.requests.filter((q) => q.method !== 'GET'),
    [],
    'nothing was written',
  );
});

test('run --plan with the saved plan of another pipeline says so in one line (exit 2), not a list of what is stale; nothing is written', async (t) => {
  const s = await setup(t);
  const other = join(s.dir, 'other.yml');
  writeFileSync(
    other,
    `version: 1
name: Licence renewal
steps:
  - uses: monitoring/engines
    with: { min-online: 1 }
  - uses: transaction-log/clear
`,
  );
  const r = await runCli(['run', other, '--plan', s.plan], { env: s.env });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(
    r.stderr,
    /^enginectl: --plan .*plan\.json: the saved plan of another pipeline \("Release with a saved plan", .*release\.yml\), not of "Licence renewal" \(.*other\.yml\)\n {2}hint: make the plan again \(enginectl plan FILE --live --out F\) and run with it \(enginectl run FILE --plan F\)\n {2}code: BAD_PLAN\n$/,
  );
  assert.doesNotMatch(r.stderr, /stale/);
  assert.deepEqual(
    s.emulator.requests.filter((q) => q.method !== 'GET'),
    [],
    'nothing was written',
  );
});

test('run --plan knows an instance by its key, not its text', async (t) => {
  const s = await setup(t);
  const saved = JSON.parse(readFileSync(s.plan, 'utf8')) as {
    planVersion: number;
    instances: { key?: string; at: string }[];
  };
  assert.equal(saved.planVersion, 4);
  assert.ok(saved.instances.every((i) => typeof i.key === 'string'));
  const runWith = async (plan: unknown) => {
    writeFileSync(s.plan, JSON.stringify(plan));
    return runCli(['run', s.file, '--plan', s.plan], { env: s.env });
  };
  // Its text is only shown: another text, the same instance; another key, another instance.
  const rekeyed = {
    ...saved,
    instances: saved.instances.map((i, n) => ({ ...i, at: `${i.at} (then)`, ...(n === 0 ? { key: 'id:gone' } : {}) })),
  };
  const moved = await runWith(rekeyed);
  assert.equal(moved.code, 2, moved.stdout + moved.stderr);
  const listed = moved.stderr.split('\n').filter((l) => l.startsWith('  - '));
  assert.deepEqual(listed, [
    '  - [1/3] Alerts (then): planned, and not in the run now',
    '  - [1/3] Alerts: in the run now, and not planned',
  ]);
  assert.deepEqual(
    s.emulator.requests.filter((q) => q.method !== 'GET'),
    [],
    'nothing was written',
  );
});

test('run --plan refuses (BAD_PLAN, exit 2) a plan of version 1 or 2, which kept no server, as made by an older enginectl, before any request, on any server', async (t) => {
  const s = await setup(t);
  const other = await startEmulator(t);
  const saved = JSON.parse(readFileSync(s.plan, 'utf8')) as {
    pipeline: { files?: unknown };
    servers?: unknown;
    instances: { key?: string }[];
  };
  // As those versions wrote them: no servers, one hash of the files (and in 1, no keys).
  const { servers: _servers, ...rest } = saved;
  const { files: _files, ...pipeline } = saved.pipeline;
  const v2 = { ...rest, planVersion: 2, pipeline };
  const v1 = { ...v2, planVersion: 1, instances: v2.instances.map(({ key: _key, ...i }) => i) };
  s.emulator.requests.length = 0;
  for (const [version, plan] of [
    [2, v2],
    [1, v1],
  ] as const) {
    writeFileSync(s.plan, JSON.stringify(plan));
    // The server it was made against, and another, which it could not tell from it.
    for (const url of [s.env.ENGINE_URL, other.url]) {
      const r = await runCli(['run', s.file, '--plan', s.plan], { env: { ...s.env, ENGINE_URL: url } });
      assert.equal(r.code, 2, `version ${version}, ${url}: ${r.stdout}${r.stderr}`);
      assert.match(
        r.stderr,
        new RegExp(
          `^enginectl: --plan .*plan\\.json: a saved plan of version ${version}, made by an older enginectl: it recorded no server, so the run cannot check that it calls the servers the plan read\n {2}hint: make the plan again \\(enginectl plan FILE --live --out F\\) and run with it \\(enginectl run FILE --plan F\\)\n {2}code: BAD_PLAN\n$`,
        ),
      );
    }
  }
  assert.deepEqual(s.emulator.requests, [], 'no request reached the server the plan was made against');
  assert.deepEqual(other.emulator.requests, [], 'no request reached the other server');
});

test('run --plan names the included file that changed, not the pipeline file, which did not', async (t) => {
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-saved-plan-'));
  mkdirSync(join(dir, 'inventory'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE.replace(/^targets:\n.*\n/m, 'include: [inventory/prod.yml]\n'));
  const inventory = join(dir, 'inventory', 'prod.yml');
  writeFileSync(
    inventory,
    'targets:\n  prod: { server: prod-db.example.com, database: PROD, token: "${{ secrets.PROD_TOKEN }}" }\n',
  );
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const plan = join(dir, 'plan.json');
  const made = await runCli(['plan', file, '--live', '--out', plan], { env });
  assert.equal(made.code, 0, made.stdout + made.stderr);
  // Only the inventory changes.
  writeFileSync(inventory, `# the prod site\n${readFileSync(inventory, 'utf8')}`);
  const r = await runCli(['run', file, '--plan', plan], { env });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  const listed = r.stderr.split('\n').filter((l) => l.startsWith('  - '));
  assert.deepEqual(listed, ['  - the included inventory/prod.yml changed']);
  // The pipeline file too: named as such.
  writeFileSync(file, `# the release\n${readFileSync(file, 'utf8')}`);
  const both = await runCli(['run', file, '--plan', plan], { env });
  assert.equal(both.code, 2, both.stdout + both.stderr);
  assert.deepEqual(
    both.stderr.split('\n').filter((l) => l.startsWith('  - ')),
    [`  - the pipeline file changed (${file})`, '  - the included inventory/prod.yml changed'],
  );
});

test('run --plan refuses (PLAN_STALE, exit 2) a plan made against another server, naming it without its credentials, before any request reaches it', async (t) => {
  const s = await setup(t);
  const other = await startEmulator(t);
  const saved = readFileSync(s.plan, 'utf8');
  assert.ok(saved.includes(s.env.ENGINE_URL), 'the plan keeps the server it read');
  // The same state, another server: its address given with the credentials in it.
  const { ENGINE_USERNAME: _user, ENGINE_PASSWORD: _password, ...rest } = s.env;
  const withLogin = other.url.replace('://', '://admin:admin@');
  const r = await runCli(['run', s.file, '--plan', s.plan], { env: { ...rest, ENGINE_URL: withLogin } });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /--plan .*plan\.json: the saved plan of \S+ is stale:/);
  assert.deepEqual(
    r.stderr.split('\n').filter((l) => l.startsWith('  - ')),
    [`  - server default was ${s.env.ENGINE_URL} when planned, and is ${other.url} now`],
  );
  assert.match(r.stderr, /\n {2}code: PLAN_STALE\n$/);
  assert.doesNotMatch(r.stderr + r.stdout, /admin@/);
  // Not even a GET: it would carry this server's credentials to a server the plan was not made against.
  assert.deepEqual(
    other.emulator.requests.map((q) => `${q.method} ${q.path}`),
    [],
    'no request reached the other server',
  );
  // The same server again: it runs.
  const same = await runCli(['run', s.file, '--plan', s.plan], { env: s.env });
  assert.equal(same.code, 0, same.stdout + same.stderr);
});

test('run --plan refuses (PLAN_STALE, exit 2) to call a server the plan did not call, before any request reaches it', async (t) => {
  const a = await startEmulator(t);
  const b = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-saved-plan-'));
  const file = join(dir, 'sites.yml');
  writeFileSync(
    file,
    `version: 1
vars: { site: a }
servers:
  a: { url: "\${{ env.A_URL }}", username: admin, password: "\${{ secrets.A_PASSWORD }}" }
  b: { url: "\${{ env.B_URL }}", username: admin, password: "\${{ secrets.B_PASSWORD }}" }
steps:
  - uses: monitoring/engines
    server: \${{ vars.site }}
    with: { min-online: 1 }
`,
  );
  const env = { A_URL: a.url, B_URL: b.url, A_PASSWORD: 'admin', B_PASSWORD: 'admin' };
  const plan = join(dir, 'plan.json');
  const made = await runCli(['plan', file, '--live', '--out', plan], { env });
  assert.equal(made.code, 0, made.stdout + made.stderr);
  const r = await runCli(['run', file, '--plan', plan, '--var', 'site=b'], { env });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /\n {2}code: PLAN_STALE\n$/);
  assert.deepEqual(
    b.emulator.requests.map((q) => `${q.method} ${q.path}`),
    [],
    'no request reached the server the plan did not call',
  );
  assert.deepEqual(
    r.stderr.split('\n').filter((l) => l.startsWith('  - ')),
    ['  - the --var values differ', `  - server b was not called when planned, and is ${b.url} now`],
  );
});

test('run --plan refuses (BAD_PLAN, exit 2) a plan not as enginectl plan --out writes it: a createdAt that is no date, an instance listed twice', async (t) => {
  const s = await setup(t);
  const saved = JSON.parse(readFileSync(s.plan, 'utf8')) as { createdAt: string; instances: unknown[] };
  const cases: [string, unknown, RegExp][] = [
    ['not a date', { ...saved, createdAt: 'not a date' }, /its createdAt \("not a date"\) is not a time it writes/],
    [
      'an instance twice',
      { ...saved, instances: [...saved.instances, saved.instances[1]] },
      /: \[2\/3\] System update prod is listed twice\n/,
    ],
  ];
  for (const [what, plan, why] of cases) {
    writeFileSync(s.plan, JSON.stringify(plan));
    const r = await runCli(['run', s.file, '--plan', s.plan], { env: s.env });
    assert.equal(r.code, 2, `${what}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /^enginectl: --plan .*plan\.json: not as enginectl plan --out writes it: /, what);
    assert.match(r.stderr, why, what);
    assert.match(
      r.stderr,
      /\n {2}hint: make the plan again \(enginectl plan FILE --live --out F\) and run with it \(enginectl run FILE --plan F\)\n {2}code: BAD_PLAN\n$/,
      what,
    );
  }
  assert.deepEqual(
    s.emulator.requests.filter((q) => q.method !== 'GET'),
    [],
    'nothing was written',
  );
});

test("every BAD_PLAN refusal (exit 2) says what to do in one wording, the table of error codes' (src/error-codes.ts); nothing is sent", async (t) => {
  const s = await setup(t);
  const saved = JSON.parse(readFileSync(s.plan, 'utf8')) as { createdAt: string };
  const other = join(s.dir, 'other.yml');
  writeFileSync(other, 'version: 1\nname: Licence renewal\nsteps:\n  - uses: monitoring/engines\n');
  const written = (name: string, text: string) => (writeFileSync(join(s.dir, name), text), join(s.dir, name));
  const cases: [string, string[]][] = [
    ['a file that is not there', ['run', s.file, '--plan', join(s.dir, 'missing.json')]],
    ['not JSON', ['run', s.file, '--plan', written('text.json', 'not JSON')]],
    ['not a saved plan', ['run', s.file, '--plan', written('other.json', '{"planVersion": 3}')]],
    [
      'edited by hand',
      ['run', s.file, '--plan', written('edited.json', JSON.stringify({ ...saved, createdAt: 'not a date' }))],
    ],
    ['of another pipeline', ['run', other, '--plan', s.plan]],
  ];
  const hints = new Set<string>();
  for (const [what, args] of cases) {
    const r = await runCli(args, { env: s.env });
    assert.equal(r.code, 2, `${what}: ${r.stdout}${r.stderr}`);
    const [, hint] = /\n {2}hint: (.*)\n {2}code: BAD_PLAN\n$/.exec(r.stderr) ?? assert.fail(`${what}: ${r.stderr}`);
    hints.add(hint!);
  }
  assert.deepEqual([...hints], [ERROR_CODES.BAD_PLAN.action]);
  assert.deepEqual(
    s.emulator.requests.filter((q) => q.method !== 'GET'),
    [],
    'nothing was written',
  );
});

test('a server URL whose password holds an @ (https://ops:s3cr@tPassw0rd@host): no part of the password reaches the saved plan or its refusal', async (t) => {
  const users = [{ name: 'ops', password: 's3cr@tPassw0rd', scopes: new Set(ALL_SCOPES) }];
  const first = await startEmulator(t, { users });
  const second = await startEmulator(t, { users });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-saved-plan-at-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const plan = join(dir, 'plan.json');
  const login = (url: string) => url.replace('://', '://ops:s3cr@tPassw0rd@');
  const made = await runCli(['plan', file, '--live', '--out', plan], {
    env: { ENGINE_URL: login(first.url), PROD_TOKEN: 'prod-token' },
  });
  assert.equal(made.code, 0, made.stdout + made.stderr);
  assert.doesNotMatch(readFileSync(plan, 'utf8'), /s3cr|tPassw0rd/);
  const r = await runCli(['run', file, '--plan', plan], {
    env: { ENGINE_URL: login(second.url), PROD_TOKEN: 'prod-token' },
  });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, new RegExp(`server default was ${first.url} when planned, and is ${second.url} now`));
  assert.doesNotMatch(r.stdout + r.stderr, /s3cr|tPassw0rd/);
});

/** Each spelling of `secret` a file could hold it in: as written, JSON-escaped, URL-encoded, hex, and base64 (standard and URL-safe) at each of the 3 byte offsets it may start at in longer text. */
function spellings(secret: string): string[] {
  const base64 = [0, 1, 2].flatMap((offset) => {
    const bytes = Buffer.concat([Buffer.alloc(offset, 'x'), Buffer.from(secret)]);
    // Only the characters made of the secret's bytes alone: not the first ones (mixed with the
    // offset's), nor the last group (padding, or mixed with what follows).
    const core = bytes
      .toString('base64')
      .slice(Math.ceil((offset * 4) / 3), -4)
      .replace(/=+$/, '');
    return [core, core.replaceAll('+', '-').replaceAll('/', '_')];
  });
  return [
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    Buffer.from(secret).toString('hex'),
    ...base64,
  ];
}

/** The journal's key (ENGINECTL_JOURNAL_KEY, a CI secret), which also keys a saved plan's fingerprints of servers whose URL holds a secret; and another one. */
const KEY = 'plan-and-run-key-5c1e0f7a9b2d4e68';
const OTHER_KEY = 'another-ci-secret-a17f3e9c0b5d2468';

/** The release pipeline against the server a secret names (`url`), two emulators to name, and the environment of a plan or run against one, with a key or none. */
async function secretServer(t: Parameters<typeof startEmulator>[0], url = '${{ secrets.PROD_URL }}') {
  const a = await startEmulator(t);
  const b = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-saved-plan-secret-url-'));
  const file = join(dir, 'release.yml');
  writeFileSync(
    file,
    PIPELINE.replace(
      'targets:',
      `servers:\n  default: { url: "${url}", username: admin, password: "\${{ secrets.PROD_PASSWORD }}" }\ntargets:`,
    ),
  );
  const env = (server: string, key?: string) => ({
    PROD_URL: server,
    PROD_HOST: server.replace('http://', ''),
    PROD_PASSWORD: 'admin',
    PROD_TOKEN: 'prod-token',
    ...(key === undefined ? {} : { ENGINECTL_JOURNAL_KEY: key }),
  });
  return { a, b, file, env, plan: join(dir, 'plan.json') };
}

/** Every hash of `text` that whoever holds the plan could make without a key of their own: its SHA-256, and its HMAC-SHA-256 under the plan's salt (as bytes, as text). */
function offlineHashes(salt: string, text: string): string[] {
  return [
    createHash('sha256').update(text).digest('hex'),
    createHmac('sha256', Buffer.from(salt, 'hex')).update(text).digest('hex'),
    createHmac('sha256', salt).update(text).digest('hex'),
  ];
}

/** Asserts the saved plan holds no hash of the server's URL, nor of its secret part, that can be checked against a guess without the key. */
function assertNoOfflineCheck(saved: string, server: string, secret: string): void {
  const { salt } = JSON.parse(saved) as { salt: string };
  for (const text of new Set([server, secret, `${server}/`]))
    for (const hash of offlineHashes(salt, text))
      assert.ok(!saved.includes(hash), `the plan holds a hash of ${text} checkable without the key:\n${saved}`);
}

for (const [how, url, secretOf] of [
  ['a server URL taken from a secret (url: ${{ secrets.PROD_URL }})', '${{ secrets.PROD_URL }}', (u: string) => u],
  [
    'a server URL holding a secret (url: http://${{ secrets.PROD_HOST }})',
    'http://${{ secrets.PROD_HOST }}',
    (u: string) => u.replace('http://', ''),
  ],
] as const) {
  test(`${how}, with ENGINECTL_JOURNAL_KEY: a run --plan against another server is refused (PLAN_STALE, exit 2) before any request, though masked both read ***; the plan holds neither secret in any spelling, nor a hash of it checkable without the key; against the same one it runs`, async (t) => {
    const { a, b, file, env, plan } = await secretServer(t, url);
    const made = await runCli(['plan', file, '--live', '--out', plan], { env: env(a.url, KEY) });
    assert.equal(made.code, 0, made.stdout + made.stderr);
    assert.doesNotMatch(made.stderr, /warning/);
    const saved = readFileSync(plan, 'utf8');
    for (const server of [a.url, b.url])
      for (const spelling of spellings(secretOf(server)))
        assert.ok(!saved.includes(spelling), `the plan holds ${spelling} (of ${server}):\n${saved}`);
    assertNoOfflineCheck(saved, a.url, secretOf(a.url));
    // The fingerprint is the key's: not the salted hash a350780 kept, and another key gives another one.
    const { keyedHash } = await import('../../src/journal/hashing.ts');
    const { fingerprint } = await import('../../src/journal/fingerprint.ts');
    const json = JSON.parse(saved) as { salt: string; servers: { default: { url: string; fingerprint?: string } } };
    const kept = json.servers.default;
    assert.equal(kept.url, secretOf(url) === url ? '***' : 'http://***');
    assert.equal(kept.fingerprint, fingerprint({ key: KEY, salt: json.salt }, a.url));
    assert.notEqual(kept.fingerprint, keyedHash(json.salt, a.url));
    assert.notEqual(kept.fingerprint, fingerprint({ key: OTHER_KEY, salt: json.salt }, a.url));

    const r = await runCli(['run', file, '--plan', plan], { env: env(b.url, KEY) });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /--plan .*plan\.json: the saved plan of \S+ is stale:/);
    assert.match(r.stderr, /\n {2}code: PLAN_STALE\n$/);
    assert.deepEqual(
      r.stderr.split('\n').filter((l) => l.startsWith('  - ')),
      [`  - server default is not the one planned: its URL differs in a masked part (${kept.url} then and now)`],
    );
    assert.deepEqual(
      b.emulator.requests.map((q) => `${q.method} ${q.path}`),
      [],
      'no request reached the server the plan was not made against',
    );
    for (const spelling of spellings(secretOf(b.url))) assert.ok(!(r.stdout + r.stderr).includes(spelling), spelling);

    a.emulator.requests.length = 0;
    const same = await runCli(['run', file, '--plan', plan], { env: env(a.url, KEY) });
    assert.equal(same.code, 0, same.stdout + same.stderr);
    assert.equal(a.emulator.requests.filter((q) => q.method === 'POST').length, 1, 'the update was sent, once');
  });
}

test('a server URL taken from a secret, without ENGINECTL_JOURNAL_KEY: plan --out warns that the plan cannot prove which server the secret names and keeps no hash of it; run --plan refuses it (BAD_PLAN, exit 2) before any request, on any server', async (t) => {
  const { a, b, file, env, plan } = await secretServer(t);
  const made = await runCli(['plan', file, '--live', '--out', plan], { env: env(a.url) });
  assert.equal(made.code, 0, made.stdout + made.stderr);
  assert.equal(
    made.stderr,
    'warning: server default (***): its URL holds a secret, and ENGINECTL_JOURNAL_KEY is not set: the saved plan cannot prove at run time which server that secret names, and run --plan will refuse it; set ENGINECTL_JOURNAL_KEY (a CI secret, the same for plan and run) and make the plan again\n',
  );
  const saved = readFileSync(plan, 'utf8');
  assertNoOfflineCheck(saved, a.url, a.url);
  assert.deepEqual((JSON.parse(saved) as { servers: unknown }).servers, { default: { url: '***' } });
  a.emulator.requests.length = 0;
  for (const [server, key] of [
    [a.url, undefined],
    [b.url, undefined],
    [a.url, KEY],
  ] as const) {
    const r = await runCli(['run', file, '--plan', plan], { env: env(server, key) });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /^enginectl: --plan .*plan\.json: the plan cannot prove that server default \(\*\*\*\) is the one it read: its URL holds a secret, and the plan was made without ENGINECTL_JOURNAL_KEY; set ENGINECTL_JOURNAL_KEY \(a CI secret, the same for plan and run\)\n {2}hint: make the plan again \(enginectl plan FILE --live --out F\) and run with it \(enginectl run FILE --plan F\)\n {2}code: BAD_PLAN\n$/,
    );
  }
  assert.deepEqual(a.emulator.requests, [], 'no request reached the server the plan was made against');
  assert.deepEqual(b.emulator.requests, [], 'no request reached the other server');
});

test('a plan made with ENGINECTL_JOURNAL_KEY, run without it or with another key: refused (PLAN_KEY, exit 2) before any request, as unprovable with this key, not as another server', async (t) => {
  const { a, b, file, env, plan } = await secretServer(t);
  assert.equal((await runCli(['plan', file, '--live', '--out', plan], { env: env(a.url, KEY) })).code, 0);
  a.emulator.requests.length = 0;
  for (const [server, key, why] of [
    [
      a.url,
      undefined,
      'the plan was made with ENGINECTL_JOURNAL_KEY, which is not set: it cannot prove without the key',
    ],
    [
      b.url,
      undefined,
      'the plan was made with ENGINECTL_JOURNAL_KEY, which is not set: it cannot prove without the key',
    ],
    [a.url, OTHER_KEY, 'ENGINECTL_JOURNAL_KEY is not the key the plan was made with: it cannot prove with this key'],
    [b.url, OTHER_KEY, 'ENGINECTL_JOURNAL_KEY is not the key the plan was made with: it cannot prove with this key'],
  ] as const) {
    const r = await runCli(['run', file, '--plan', plan], { env: env(server, key) });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.equal(
      r.stderr.replace(/--plan \S*plan\.json/, '--plan plan.json'),
      // The file's literal username is the password's value: masked in its text, so pinned too.
      `enginectl: --plan plan.json: ${why} that server default (***) is the one it read, and that what the secrets mask in its files and writes is what it read\n  hint: ${ERROR_CODES.PLAN_KEY.action}\n  code: PLAN_KEY\n`,
    );
    assert.doesNotMatch(r.stderr, /not the one planned|stale/);
  }
  assert.deepEqual(a.emulator.requests, [], 'no request reached the server the plan was made against');
  assert.deepEqual(b.emulator.requests, [], 'no request reached the other server');
});

/** A saved plan as version 3 wrote it: each server's masked URL only, no salt, no hash. */
function asVersion3(plan: {
  servers: Record<string, string | { url: string }>;
  salt?: unknown;
  keyCheck?: unknown;
}): unknown {
  const { salt: _salt, keyCheck: _keyCheck, ...rest } = plan;
  const servers = Object.fromEntries(
    Object.entries(plan.servers).map(([name, s]) => [name, typeof s === 'string' ? s : s.url]),
  );
  return { ...rest, planVersion: 3, servers };
}

test('a plan of version 3 whose server URL holds a secret (masked ***) is refused (BAD_PLAN, exit 2) as one that cannot prove which server it read, before any request, on any server, with the key or without', async (t) => {
  const { a, b, file, env, plan } = await secretServer(t);
  assert.equal((await runCli(['plan', file, '--live', '--out', plan], { env: env(a.url, KEY) })).code, 0);
  writeFileSync(plan, JSON.stringify(asVersion3(JSON.parse(readFileSync(plan, 'utf8')))));
  a.emulator.requests.length = 0;
  for (const server of [a.url, b.url])
    for (const key of [KEY, undefined]) {
      const r = await runCli(['run', file, '--plan', plan], { env: env(server, key) });
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(
        r.stderr,
        /^enginectl: --plan .*plan\.json: the plan cannot prove that server default \(\*\*\*\) is the one it read: its URL holds a secret, and the plan is of version 3 \(an older enginectl\), which kept no fingerprint of it; set ENGINECTL_JOURNAL_KEY \(a CI secret, the same for plan and run\)\n {2}hint: make the plan again \(enginectl plan FILE --live --out F\) and run with it \(enginectl run FILE --plan F\)\n {2}code: BAD_PLAN\n$/,
      );
    }
  assert.deepEqual(a.emulator.requests, [], 'no request reached the server the plan was made against');
  assert.deepEqual(b.emulator.requests, [], 'no request reached the other server');
});

test('a plan of version 3 whose server URLs hold no secret is still checked by them: refused against another server before any request, run against its own', async (t) => {
  const s = await setup(t);
  const other = await startEmulator(t);
  writeFileSync(s.plan, JSON.stringify(asVersion3(JSON.parse(readFileSync(s.plan, 'utf8')))));
  const r = await runCli(['run', s.file, '--plan', s.plan], { env: { ...s.env, ENGINE_URL: other.url } });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.deepEqual(
    r.stderr.split('\n').filter((l) => l.startsWith('  - ')),
    [`  - server default was ${s.env.ENGINE_URL} when planned, and is ${other.url} now`],
  );
  assert.match(r.stderr, /\n {2}code: PLAN_STALE\n$/);
  assert.deepEqual(other.emulator.requests, [], 'no request reached the other server');
  const same = await runCli(['run', s.file, '--plan', s.plan], { env: s.env });
  assert.equal(same.code, 0, same.stdout + same.stderr);
});

test('a plan of a newer version than this enginectl writes is refused (BAD_PLAN, exit 2) as made by a newer enginectl, not as no saved plan; nothing is sent', async (t) => {
  const s = await setup(t);
  const { PLAN_VERSION } = await import('../../src/app/saved-plan.ts');
  const saved = JSON.parse(readFileSync(s.plan, 'utf8')) as Record<string, unknown>;
  s.emulator.requests.length = 0;
  writeFileSync(s.plan, JSON.stringify({ ...saved, planVersion: PLAN_VERSION + 1, somethingNew: true }));
  const r = await runCli(['run', s.file, '--plan', s.plan], { env: s.env });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(
    r.stderr,
    new RegExp(
      `^enginectl: --plan .*plan\\.json: a saved plan of version ${PLAN_VERSION + 1}, made by a newer enginectl than this one \\(it reads versions 3 to ${PLAN_VERSION}\\): upgrade enginectl, or make the plan with this one\n {2}hint: make the plan again \\(enginectl plan FILE --live --out F\\) and run with it \\(enginectl run FILE --plan F\\)\n {2}code: BAD_PLAN\n$`,
    ),
  );
  assert.deepEqual(s.emulator.requests, [], 'no request was sent');
});

test('run --plan --journal J refuses a plan whose file changed before the journal is opened: no journal left behind, a later run on it starts afresh', async (t) => {
  const s = await setup(t);
  writeFileSync(s.file, `${PIPELINE}# reviewed again\n`);
  const journal = join(s.dir, 'run.journal.jsonl');
  const before = s.emulator.requests.length;
  const r = await runCli(['run', s.file, '--plan', s.plan, '--journal', journal], { env: s.env });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /PLAN_STALE/);
  assert.equal(existsSync(journal), false, 'no journal written: the refused run opened none');
  assert.equal(s.emulator.requests.length, before, 'no request');
});
