// A password in a URL (scheme://user:PASSWORD@host) is found wherever a URL may hold one and shown
// by no channel, though the URL would not parse: unencoded `#`, `?`, `/`, `@` or `%` in the
// password, a port that is no number, white space before the URL, a URL inside a longer value,
// several URLs in one value. In a value read through env.* (every step's name, every report), and
// in a server's literal `url` of a pipeline that fails validation (its findings' source lines).
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ExitCode } from '../../src/errors.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { assertClean } from '../helpers/secrets.ts';

/** What the CLI registered with ::add-mask:: (a command's value escapes `%`, CR and LF). */
const registered = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('::add-mask::'))
    .map((l) => l.slice('::add-mask::'.length).replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%'));

/** Each value, the passwords it holds, and how a step's name shows it. */
const ENV_CASES: { value: string; passwords: string[]; shown: string }[] = [
  { value: 'postgres://app:pa#ss-Word-10@db/app', passwords: ['pa#ss-Word-10'], shown: 'postgres://app:***@db/app' },
  { value: 'postgres://app:pa?ss-Word-11@db/app', passwords: ['pa?ss-Word-11'], shown: 'postgres://app:***@db/app' },
  { value: 'postgres://app:pa%ss-Word-14@db/app', passwords: ['pa%ss-Word-14'], shown: 'postgres://app:***@db/app' },
  {
    value: 'postgres://app:Sup3r-Pass-1@db:notaport/app',
    passwords: ['Sup3r-Pass-1'],
    shown: 'postgres://app:***@db:notaport/app',
  },
  { value: ' postgres://app:Sup3r-Pass-2@db/app', passwords: ['Sup3r-Pass-2'], shown: ' postgres://app:***@db/app' },
  { value: '\tpostgres://app:Sup3r-Pass-3@db/app', passwords: ['Sup3r-Pass-3'], shown: '\tpostgres://app:***@db/app' },
  { value: '--url=https://u:Sup3r-Pass-7@host/x', passwords: ['Sup3r-Pass-7'], shown: '--url=https://u:***@host/x' },
  {
    value: 'postgres://a:Pass-One-1@h1/x,postgres://b:Sup3r-Pass-6@h2/y',
    passwords: ['Pass-One-1', 'Sup3r-Pass-6'],
    shown: 'postgres://a:***@h1/x,postgres://b:***@h2/y',
  },
  // A password holding `@` and `/`: which `@` ends it is ambiguous, so each candidate is masked.
  { value: 'postgres://app:Pw9@Word/16-x@db/app', passwords: ['Pw9@Word/16-x'], shown: 'postgres://app:***@db/app' },
  { value: 'postgres://app:pa ss-Word-17@db/app', passwords: ['pa ss-Word-17'], shown: 'postgres://app:***@db/app' },
  // %-escaped: masked as written and as the server reads it.
  {
    value: 'postgres://app:pa%40ss%23Word-18@db/app',
    passwords: ['pa%40ss%23Word-18', 'pa@ss#Word-18'],
    shown: 'postgres://app:***@db/app',
  },
];

test('a URL password in a value read through env.* is shown by no channel, though the URL would not parse (# ? % / @ or a space in it, a bad port), is preceded by white space or other text, or is one of several', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-url-passwords-'));
  const file = join(dir, 'p.yml');
  const env: Record<string, string> = {};
  ENV_CASES.forEach((c, i) => (env[`DB${i + 1}`] = c.value));
  writeFileSync(
    file,
    `version: 1
name: URL passwords
steps:
${ENV_CASES.map((_, i) => `  - name: "E${i + 1} \${{ env.DB${i + 1} }}"\n    uses: assert\n    with: { that: "true", message: "M${i + 1} \${{ env.DB${i + 1} }}" }`).join('\n')}
`,
  );
  const reports = ['r.json', 'r.xml', 'r.md', 'r.html', 'j.jsonl'].map((f) => join(dir, f));
  const r = await runCli(
    ['run', file, '--emulator', '--ci', 'github', '--report-json', reports[0]!, '--junit', reports[1]!].concat([
      '--summary',
      reports[2]!,
      '--html',
      reports[3]!,
      '--journal',
      reports[4]!,
    ]),
    { env },
  );
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const report = JSON.parse(readFileSync(reports[0]!, 'utf8')) as { steps: { name: string }[] };
  // Each URL is still shown, its login hidden: the run says which database it meant.
  assert.deepEqual(
    report.steps.map((s) => s.name),
    ENV_CASES.map((c, i) => `E${i + 1} ${c.shown}`),
  );
  const passwords = ENV_CASES.flatMap((c) => c.passwords);
  for (const p of passwords) assert.ok(registered(r.stdout).includes(p), `::add-mask:: of ${p}`);
  assertClean('stdout', r.stdout.replace(/^::add-mask::.*$/gm, ''), passwords);
  assertClean('stderr', r.stderr, passwords);
  for (const name of readdirSync(dir).filter((f) => f !== 'p.yml'))
    assertClean(name, readFileSync(join(dir, name), 'utf8'), passwords);
});

/** A server whose literal `url` carries a password no URL parser reads; line 4 of the file. */
const literal = (url: string) => `version: 1
name: t10
servers:
  main: { url: "${url}" }
steps:
  - uses: monitoring/engines
`;

test('a pipeline whose server URL holds a password it cannot parse fails validation, its finding quoting the line without the password: validate and run', async () => {
  const cases = [
    { password: 'pa#ss-Word-20', url: (p: string) => `https://deploy:${p}@s.example.com` },
    { password: 'pa?ss-Word-23', url: (p: string) => `https://deploy:${p}@s.example.com` },
    { password: 'pass-Word-24', url: (p: string) => `https://deploy:${p}@s.example.com:notaport` },
    { password: 'pa ss-Word-25', url: (p: string) => `https://deploy:${p}@s.example.com` },
    { password: 'pa/ss-Word-26', url: (p: string) => `https://deploy:${p}@s.example.com` },
    { password: 'pa/ss@Word-28', url: (p: string) => `https://deploy:${p}@s.example.com:x` },
  ];
  for (const c of cases) {
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-url-literal-'));
    const file = join(dir, 't10.yml');
    writeFileSync(file, literal(c.url(c.password)));
    for (const command of [
      ['validate', file],
      ['run', file, '--emulator'],
    ]) {
      const r = await runCli([...command, '--ci', 'github']);
      const said = `${command[0]} ${c.password}: ${r.stdout}${r.stderr}`;
      assert.equal(r.code, ExitCode.invalidInput, said);
      // The finding, its message naming the URL with its login hidden, and its source line.
      assert.match(r.stderr, /t10\.yml:4:\d+ .*the URL "https:\/\/\*\*\*@s\.example\.com/, said);
      assert.match(r.stderr, /\n {2}4 \| .*url: "https:\/\/deploy:\*\*\*@s\.example\.com/, said);
      assert.ok(registered(r.stdout).includes(c.password), `::add-mask:: of it: ${said}`);
      assertClean(`${said}: stdout`, r.stdout.replace(/^::add-mask::.*$/gm, ''), [c.password]);
      assertClean(`${said}: stderr`, r.stderr, [c.password]);
    }
  }
});

test('a long value with many @ after a URL password: the password is shown by no channel, and the candidates it is looked for in stay few (each @ may end it, the first 16 are taken)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-url-many-at-'));
  const file = join(dir, 'p.yml');
  // 2,000 `@`, 50 characters apart: every `@` a candidate end would be 2,000 candidates of 50 KB on average.
  const value = `postgres://app:pa#ss-Word-40@db/app?c=${`${'a'.repeat(49)}@`.repeat(2000)}`;
  writeFileSync(
    file,
    'version: 1\nsteps:\n  - name: "E ${{ env.LONG }}"\n    uses: assert\n    with: { that: "true" }\n',
  );
  const json = join(dir, 'r.json');
  const r = await runCli(['run', file, '--emulator', '--ci', 'github', '--report-json', json], {
    env: { LONG: value },
  });
  assert.equal(r.code, 0, r.stdout.slice(0, 2000) + r.stderr);
  const report = JSON.parse(readFileSync(json, 'utf8')) as { steps: { name: string }[] };
  assert.match(report.steps[0]!.name.slice(0, 120), /^E postgres:\/\/app:\*\*\*@a{49}@/);
  assert.ok(registered(r.stdout).includes('pa#ss-Word-40'), '::add-mask:: of the password');
  const masks = registered(r.stdout).length;
  // Each secret is registered in about ten spellings: 16 candidates make some 170 lines, every `@` 20,000.
  assert.ok(masks < 1000, `${masks} ::add-mask:: lines`);
  for (const [channel, text] of [
    ['stdout', r.stdout.replace(/^::add-mask::.*$/gm, '')],
    ['stderr', r.stderr],
    ['r.json', readFileSync(json, 'utf8')],
  ])
    assert.ok(!text!.includes('pa#ss-Word-40'), `${channel} shows the password`);
});

test("a run's journal hashes its file with a server URL's password masked, though the URL does not parse or parses with another password: no hash is an offline check of it", async (t) => {
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-url-hash-'));
  const file = join(dir, 'p.yml');
  // `other` resolves to a URL no parser reads (`#`); `third` parses as password `pa` at host `ss`
  // (a base URL with an @ after its host, refused when a run calls it, api/base-url.ts; its text
  // written with an expression, so that validate leaves it to the run, which does not call it).
  // The file's hash masks both passwords whole.
  const text = `version: 1
name: Hashes
vars: { host: s.example.com }
servers:
  main: { url: "\${{ env.ENGINE_URL }}", username: "\${{ env.ENGINE_USERNAME }}", password: "\${{ secrets.ENGINE_PASSWORD }}" }
  other: { url: "https://deploy:pa#ss-Word-60@\${{ vars.host }}" }
  third: { url: "https://deploy:pa@ss/Word-61@\${{ vars.host }}" }
steps:
  - uses: monitoring/engines
    server: main
`;
  writeFileSync(file, text);
  const journal = join(dir, 'run.journal.jsonl');
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const r = await runCli(['run', file, '--journal', journal], { env });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const { fileHash } = await import('../../src/journal/hashing.ts');
  const run = JSON.parse(readFileSync(journal, 'utf8').split('\n')[0]!) as { salt: string; files: { hash: string }[] };
  const masked = text.replace('pa#ss-Word-60', '***').replace('pa@ss/Word-61', '***');
  assert.notEqual(run.files[0]!.hash, fileHash(run.salt, text), 'the hash is an offline check of the passwords');
  assert.equal(run.files[0]!.hash, fileHash(run.salt, masked));
});

test("a literal URL password after a user name an expression gives (spaces inside its braces) is not quoted by an invalid pipeline's finding", async () => {
  const password = 'pa#ss-Word-30';
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-url-literal-'));
  const file = join(dir, 't10.yml');
  writeFileSync(
    file,
    `version: 1
name: t10
vars: { user: deploy }
servers:
  main: { url: "https://\${{ vars.user }}:${password}@s.example.com", bogus: 1 }
steps:
  - uses: monitoring/engines
`,
  );
  for (const command of [
    ['validate', file],
    ['run', file, '--emulator'],
  ]) {
    const r = await runCli([...command, '--ci', 'github']);
    const said = `${command[0]}: ${r.stdout}${r.stderr}`;
    assert.equal(r.code, ExitCode.invalidInput, said);
    // The finding and its source line, the user's expression kept, the password hidden.
    assert.match(r.stderr, /\n {2}5 \| .*url: "https:\/\/\$\{\{ vars\.user \}\}:\*\*\*@s\.example\.com/, said);
    assert.ok(registered(r.stdout).includes(password), `::add-mask:: of it: ${said}`);
    assertClean(`${said}: stdout`, r.stdout.replace(/^::add-mask::.*$/gm, ''), [password]);
    assertClean(`${said}: stderr`, r.stderr, [password]);
  }
});
