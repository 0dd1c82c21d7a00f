// An operator's decision is a decision in every report (JSON, JUnit, Markdown, HTML, the summary
// line): who decided what, on which evidence; an in-doubt call treated as applied is never
// counted as a success, and a journal of another pipeline is named as such.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import type { Report } from '../../src/report/index.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = `version: 1
name: Decisions
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
  - id: clear
    uses: transaction-log/clear
`;

async function cut(t: TestContext) {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-decisions-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const env = {
    ENGINE_URL: url,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    PROD_TOKEN: 'prod-token',
    USER: 'octo-operator',
  };
  const journal = join(dir, 'run.journal.jsonl');
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', reset: 'after', times: 1 });
  assert.equal((await runCli(['run', file, '--journal', journal], { env })).code, 1);
  const out = (name: string) => [
    '--report-json',
    join(dir, `${name}.json`),
    '--junit',
    join(dir, `${name}.xml`),
    '--summary',
    join(dir, `${name}.md`),
    '--html',
    join(dir, `${name}.html`),
  ];
  const read = (name: string) => ({
    json: JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as Report,
    xml: readFileSync(join(dir, `${name}.xml`), 'utf8'),
    md: readFileSync(join(dir, `${name}.md`), 'utf8'),
    html: readFileSync(join(dir, `${name}.html`), 'utf8'),
  });
  return { dir, file, env, journal, emulator, out, read };
}

test('--in-doubt skip: the call treated as applied is no success in any report; JUnit fails it as IN_DOUBT with the decision', async (t) => {
  const s = await cut(t);
  const resumed = await runCli(['run', s.file, '--resume', s.journal, '--in-doubt', 'skip', ...s.out('skip')], {
    env: s.env,
  });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  const { json, xml, md, html } = s.read('skip');
  const vfs = json.steps.find((x) => x.id === 'vfs')!;
  assert.notEqual(vfs.outcome, 'success');
  assert.equal(vfs.decision?.decision, 'skip');
  assert.match(vfs.decision?.by ?? '', /^octo-operator@/);
  assert.deepEqual(
    [json.counts.success, json.counts.treatedAsApplied, json.counts.inDoubt],
    [1, 1, 1],
    'the clear succeeded; the update is treated as applied, not a success',
  );
  const failures = Number(/<testsuite [^>]*failures="(\d+)"/.exec(xml)![1]);
  assert.equal(failures, (xml.match(/<failure /g) ?? []).length, 'JUnit counts the failures it lists');
  assert.match(
    xml,
    /<testcase name="vfs"[^>]*>\s*<failure type="IN_DOUBT" message="in doubt: treated as applied by the operator \(octo-operator@/,
  );
  assert.match(md, /treated as applied by the operator \(octo-operator@/);
  assert.match(html, /treated as applied by the operator \(octo-operator@/);
  assert.match(resumed.stdout, /1 treated as applied\b/);
  assert.doesNotMatch(resumed.stdout, /2 succeeded/);
});

test(`--in-doubt retry: the operator's decision to send again is shown in the Markdown and HTML reports too`, async (t) => {
  const s = await cut(t);
  const resumed = await runCli(['run', s.file, '--resume', s.journal, '--in-doubt', 'retry', ...s.out('retry')], {
    env: s.env,
  });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  const { json, md, html } = s.read('retry');
  assert.equal(json.steps.find((x) => x.id === 'vfs')!.decision?.decision, 'retry');
  assert.match(md, /sent again by the operator's decision \(octo-operator@/);
  assert.match(html, /sent again by the operator(&#39;|')s decision \(octo-operator@/);
});

test(`a resume with --force of another pipeline's journal names where the journal came from in every report`, async (t) => {
  const s = await cut(t);
  assert.equal((await runCli(['run', s.file, '--resume', s.journal, '--in-doubt', 'skip'], { env: s.env })).code, 0);
  const other = join(s.dir, 'other.yml');
  writeFileSync(other, PIPELINE.replace('name: Decisions', 'name: Another release'));
  const resumed = await runCli(['run', other, '--resume', s.journal, '--force', ...s.out('other')], { env: s.env });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  const { json, xml, md, html } = s.read('other');
  assert.deepEqual([json.resumedFrom?.name, json.resumedFrom?.samePipeline], ['Decisions', false]);
  for (const [name, text] of [
    ['md', md],
    ['html', html],
    ['xml', xml],
  ])
    assert.match(
      text!,
      /Resumed from the journal .*run\.journal\.jsonl, written by another pipeline \((&quot;|")Decisions/,
      name,
    );
});

test(`no file is an offline check of a secret: the journal's and the saved plan's hashes are of masked values, the key beside them notwithstanding`, async (t) => {
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-hashes-'));
  const file = join(dir, 'release.yml');
  // A literal password in the file (a single-step action's inputs are such a file), and a var given a secret's value.
  const text = `version: 1
name: Hashes
vars: { note: x }
targets:
  prod: { server: prod-db.example.com, database: PROD, token: Hunter2-literal }
steps:
  - uses: update/vfs
    with: { target: prod, files: [1001] }
    if: \${{ vars.note != '' }}
`;
  writeFileSync(file, text);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token-value' };
  const journal = join(dir, 'run.journal.jsonl');
  const r = await runCli(['run', file, '--journal', journal, '--var', 'note=admin'], { env });
  assert.equal(r.code, 1, 'the emulator refuses the token: the journal is written all the same');
  const { fileHash, keyedHash, valuesHash } = await import('../../src/journal/hashing.ts');
  const { valuesHashPlain } = await import('../../src/app/plain-hash.ts');
  const written = readFileSync(journal, 'utf8');
  const run = JSON.parse(written.split('\n')[0]!) as {
    salt: string;
    files: { hash: string }[];
    varsHash: string;
    vars: Record<string, unknown>;
  };
  // In either form a journal hashes a file (version 3's, and the text's own before it).
  for (const hash of [fileHash(run.salt, text), keyedHash(run.salt, text)])
    assert.notEqual(
      run.files[0]!.hash,
      hash,
      'the salt beside the hash would let a dictionary test the literal password',
    );
  assert.equal(
    run.files[0]!.hash,
    fileHash(run.salt, text.replace('Hunter2-literal', '***')),
    'the hash of the masked text',
  );
  assert.equal(written.includes('Hunter2-literal'), false);
  assert.notEqual(run.vars.note, 'admin', "a var holding a secret (the server's password) is masked");
  assert.notEqual(run.varsHash, valuesHash(run.salt, { note: 'admin' }));
  const plan = join(dir, 'plan.json');
  const planned = await runCli(['plan', file, '--live', '--out', plan, '--var', 'note=admin'], { env });
  assert.notEqual(planned.code, 2, planned.stdout + planned.stderr);
  const saved = readFileSync(plan, 'utf8');
  assert.equal(
    saved.includes(valuesHashPlain({ note: 'admin' })),
    false,
    'the saved plan holds no plain hash of a secret var',
  );
  const again = await runCli(['run', file, '--plan', plan, '--var', 'note=admin'], { env });
  assert.doesNotMatch(again.stderr, /plan/, 'the saved plan still matches its run');
});

test('verify does not call a pipeline changed whose file holds a literal secret: the journal hashes it masked, and verify compares it masked', async (t) => {
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-verify-hash-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE.replace('token: "${{ secrets.PROD_TOKEN }}"', 'token: prod-token'));
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const journal = join(dir, 'run.journal.jsonl');
  assert.equal((await runCli(['run', file, '--journal', journal], { env })).code, 0);
  const verified = await runCli(['verify', journal], { env });
  assert.equal(verified.code, 0, verified.stdout + verified.stderr);
  assert.doesNotMatch(verified.stderr, /changed since the journal's run/);
});

test("report of a resume killed right after recording the operator's --in-doubt decision shows that decision, standing and not acted on, in every report", async (t) => {
  const s = await cut(t);
  for (const [choice, said] of [
    ['skip', /treated as applied by the operator \(octo-operator@\S+\); not acted on yet: the run that goes on/],
    ['retry', /to be sent again by the operator's decision \(octo-operator@\S+\), not sent yet; not acted on yet/],
  ] as const) {
    const journal = join(s.dir, `${choice}.journal.jsonl`);
    writeFileSync(journal, readFileSync(s.journal));
    assert.equal((await runCli(['run', s.file, '--resume', journal, '--in-doubt', choice], { env: s.env })).code, 0);
    // The resume killed right after its decision was recorded: nothing of its steps in the journal.
    const lines = readFileSync(journal, 'utf8').split('\n');
    const decision = lines.findIndex((l) => l.includes('"t":"decision"'));
    assert.ok(decision > 0, 'the decision is recorded');
    writeFileSync(journal, lines.slice(0, decision + 1).join('\n') + '\n');
    const r = await runCli(['report', journal, ...s.out(choice)], { env: s.env });
    // Not acted on: the run is not over, nor the doubt settled.
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, said);
    const { json, xml, md, html } = s.read(choice);
    const vfs = json.steps.find((x) => x.id === 'vfs')!;
    assert.equal(vfs.decision?.decision, choice);
    assert.equal(vfs.decision?.pending, true);
    assert.equal(json.counts.treatedAsApplied, 0, JSON.stringify(json.counts));
    assert.equal(json.counts.failure, 1, JSON.stringify(json.counts));
    for (const [name, text] of [
      ['JUnit', xml],
      ['summary', md],
      ['HTML', html.replaceAll('&#39;', "'")],
    ] as const)
      assert.match(text, /not acted on yet: the run that goes on \(run --resume JOURNAL/, name);
  }
});

test('report of a resume killed right after recording its --in-doubt decision on a step whose own run was killed mid-call: the decision stands, not acted on, never counted as treated as applied nor said sent again', async (t) => {
  const s = await cut(t);
  // The first run killed while its update was in flight: its journal ends at the call's send.
  const whole = readFileSync(s.journal, 'utf8').split('\n');
  const killed = whole.slice(0, whole.findIndex((l) => l.includes('"t":"send"')) + 1).join('\n') + '\n';
  for (const [choice, said] of [
    ['skip', /treated as applied by the operator \(octo-operator@\S+\); not acted on yet/],
    ['retry', /to be sent again by the operator's decision \(octo-operator@\S+\), not sent yet; not acted on yet/],
  ] as const) {
    const journal = join(s.dir, `killed-${choice}.journal.jsonl`);
    writeFileSync(journal, killed);
    assert.equal((await runCli(['run', s.file, '--resume', journal, '--in-doubt', choice], { env: s.env })).code, 0);
    const lines = readFileSync(journal, 'utf8').split('\n');
    writeFileSync(journal, lines.slice(0, lines.findIndex((l) => l.includes('"t":"decision"')) + 1).join('\n') + '\n');
    const r = await runCli(['report', journal, ...s.out(`killed-${choice}`)], { env: s.env });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const { json, md } = s.read(`killed-${choice}`);
    const vfs = json.steps.find((x) => x.id === 'vfs')!;
    assert.deepEqual([vfs.decision?.decision, vfs.decision?.pending], [choice, true], JSON.stringify(vfs.decision));
    assert.equal(json.counts.treatedAsApplied, 0, JSON.stringify(json.counts));
    assert.match(md, said);
    assert.doesNotMatch(md, /(?<!to be )sent again by the operator's decision/);
  }
});

test("--in-doubt retry after verify read the call applied: the write is sent again on the operator's word, and the resume says it replaces verify's reading", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-retry-after-verify-'));
  const file = join(dir, 'release.yml');
  writeFileSync(
    file,
    `version: 1
name: Licence
steps:
  - id: remove
    uses: licensing/remove
    with: { key: 2 }
`,
  );
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', USER: 'octo-operator' };
  const journal = join(dir, 'run.journal.jsonl');
  emulator.faults.add({ method: 'DELETE', path: '/api/licensing/v1/licenses/2', reset: 'after', times: 1 });
  assert.equal((await runCli(['run', file, '--journal', journal], { env })).code, 1);
  const verified = await runCli(['run', file, '--resume', journal, '--in-doubt', 'verify'], { env });
  assert.equal(verified.code, 0, verified.stdout + verified.stderr);
  const again = await runCli(['run', file, '--resume', journal, '--in-doubt', 'retry'], { env });
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.match(
    again.stdout + again.stderr,
    /"Remove a license" \(DELETE \/api\/licensing\/v1\/licenses\/2[^)]*\): verify read it applied \(octo-operator@[^)]*\); --in-doubt retry sends it again/,
  );
  assert.equal(emulator.requests.filter((r) => r.method === 'DELETE').length, 2, 'sent again, on the word');
});

test(`retry: { in-doubt: retry } is the pipeline's policy, not an operator's decision: the terminal and every report say so, the run's and the journal's`, async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-policy-retry-'));
  const file = join(dir, 'release.yml');
  writeFileSync(
    file,
    PIPELINE.replace('files: [1001] }\n', 'files: [1001] }\n    retry: { attempts: 2, delay: 1ms, in-doubt: retry }\n'),
  );
  const env = {
    ENGINE_URL: url,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    PROD_TOKEN: 'prod-token',
    USER: 'octo-operator',
  };
  const journal = join(dir, 'run.journal.jsonl');
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', reset: 'after', times: 1 });
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', status: 503, times: 1 });
  const out = (name: string) =>
    ['json', 'xml', 'md', 'html'].map((ext) => join(dir, `${name}.${ext}`)) as [string, string, string, string];
  const flags = ([json, xml, md, html]: string[]) => [
    '--report-json',
    json!,
    '--junit',
    xml!,
    '--summary',
    md!,
    '--html',
    html!,
  ];
  const run = await runCli(['run', file, '--journal', journal, ...flags(out('run'))], { env });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const report = await runCli(['report', journal, ...flags(out('report'))], { env });
  assert.equal(report.code, 1, report.stdout + report.stderr);
  const POLICY = /sent again by the pipeline(&#39;|&apos;|')s in-doubt: retry policy/;
  for (const [name, said] of [
    ['run', run],
    ['report', report],
  ] as const) {
    const [json, xml, md, html] = out(name).map((f) => readFileSync(f, 'utf8'));
    const vfs = (JSON.parse(json!) as Report).steps.find((x) => x.id === 'vfs')!;
    assert.equal(vfs.decision?.decision, 'retry', name);
    assert.match(vfs.decision?.by ?? '', /^the pipeline\b/, `${name}: JSON names the pipeline as who decided`);
    for (const [surface, text] of [
      ['terminal', said.stdout + said.stderr],
      ['JUnit', xml!],
      ['summary', md!],
      ['HTML', html!],
    ] as const) {
      assert.match(text, POLICY, `${name} ${surface}`);
      assert.doesNotMatch(text, /operator(&#39;|&apos;|')s decision/, `${name} ${surface}: no operator decided`);
    }
  }
});
