// A write left in doubt and then decided by the operator (run --resume J --in-doubt skip) is said to
// have passed on the operator's word, not continue-on-error's, and the error its call got before the
// decision is that call's past, not advice for now.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const HEAD = `version: 1
name: Decided
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
`;
const VFS = `  - id: vfs
    name: VFS update prod
    uses: update/vfs
    with: { target: prod, files: [1001] }
`;

/** A run whose POST (the vfs update) a gateway answered 504 (the server applied it): in doubt, in the journal. */
async function leftInDoubt(t: TestContext, more = '', write = { steps: VFS, path: '/api/devops/v1/update/vfs' }) {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-decided-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, HEAD + write.steps + more);
  const env = {
    ENGINE_URL: url,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    PROD_TOKEN: 'prod-token',
    USER: 'octo-operator',
  };
  const journal = join(dir, 'run.journal.jsonl');
  emulator.faults.add({ method: 'POST', path: write.path, gateway: 504, times: 1 });
  const first = await runCli(['run', file, '--journal', journal], { env });
  assert.equal(first.code, 1, first.stdout + first.stderr);
  assert.match(first.stdout, /hint: .*check the server URL and the proxy/, "the 504's hint, then: the call's advice");
  return { dir, file, env, journal, emulator };
}

test(`a doubt the operator decided (--in-doubt skip) in a pipeline with no continue-on-error: the summary says the operator's decision let it pass, and the 504's old hint is advice in no report`, async (t) => {
  const s = await leftInDoubt(t, '  - id: clear\n    uses: transaction-log/clear\n');
  const [md, html, xml] = ['skip.md', 'skip.html', 'skip.xml'].map((name) => join(s.dir, name)) as [
    string,
    string,
    string,
  ];
  const resumed = await runCli(
    ['run', s.file, '--resume', s.journal, '--in-doubt', 'skip', '--summary', md, '--html', html, '--junit', xml],
    { env: s.env },
  );
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  const summary = readFileSync(md, 'utf8');
  assert.match(summary, /^## ✅ Decided: success$/m);
  assert.doesNotMatch(summary, /continue-on-error/, 'no step has continue-on-error');
  assert.match(summary, /^### Failed, cancelled and in-doubt steps \(the operator's decision let them pass\)$/m);
  const item = /^- \*\*VFS update prod\*\*.*(\n {2}- .*)*/m.exec(summary)?.[0] ?? '';
  assert.match(item, /treated as applied by the operator \(octo-operator@/, summary);
  assert.doesNotMatch(item, /what to do/, `a decided doubt gets no advice of the call's error:\n${item}`);
  assert.match(item, /\n {2}- its call's error, before the decision: .*HTTP 504/, item);
  const page = readFileSync(html, 'utf8');
  assert.doesNotMatch(page, /check the server URL and the proxy/, 'the HTML report gives no advice of the old error');
  assert.match(page, /its call(&#39;|')s error, before the decision: .*HTTP 504/);
  const junit = readFileSync(xml, 'utf8');
  assert.doesNotMatch(junit, /check the server URL and the proxy/, 'nor does JUnit');
  assert.match(junit, /its call(&apos;|')s error, before the decision: .*HTTP 504/);
});

test(`a decided doubt beside a failure continue-on-error let pass: the heading names both`, async (t) => {
  const s = await leftInDoubt(
    t,
    '  - id: engines\n    uses: monitoring/engines\n    continue-on-error: true\n    with: { min-online: 99 }\n',
  );
  const md = join(s.dir, 'skip.md');
  const resumed = await runCli(['run', s.file, '--resume', s.journal, '--in-doubt', 'skip', '--summary', md], {
    env: s.env,
  });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  const summary = readFileSync(md, 'utf8');
  assert.match(
    summary,
    /^### Failed, cancelled and in-doubt steps \(continue-on-error or the operator's decision let them pass\)$/m,
  );
});

test(`the terminal says a write the operator treated as applied (--in-doubt skip) is that, not "skipped"; report of the journal too, and the summary's row has no "skipped"`, async (t) => {
  const s = await leftInDoubt(t, '  - id: clear\n    uses: transaction-log/clear\n');
  const md = join(s.dir, 'skip.md');
  const resumed = await runCli(['run', s.file, '--resume', s.journal, '--in-doubt', 'skip', '--summary', md], {
    env: s.env,
  });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  const line = /^- \[1\/2\] VFS update prod: in doubt: treated as applied by the operator \(octo-operator@[^)]+\)$/m;
  assert.match(resumed.stdout, line);
  assert.doesNotMatch(resumed.stdout, /VFS update prod: skipped/);
  const report = await runCli(['report', s.journal]);
  assert.equal(report.code, 0, report.stdout + report.stderr);
  assert.match(report.stdout, /VFS update prod: in doubt: treated as applied by the operator \(octo-operator@/);
  assert.doesNotMatch(report.stdout, /VFS update prod: skipped/);
  const row = /^\| ⚠️ \| VFS update prod .*$/m.exec(readFileSync(md, 'utf8'))?.[0] ?? '';
  assert.match(row, /treated as applied by the operator/);
  assert.doesNotMatch(row, /\| skipped \|$/, `the row's key figures do not say skipped: ${row}`);
});

test(`the terminal says a write verify read applied (--in-doubt verify) was treated as applied on its evidence, not "skipped"`, async (t) => {
  const s = await leftInDoubt(t, '', {
    steps:
      '  - id: create\n    uses: classes/create\n    with: { class: 12, fields: { iname: mnew, ifullname: Mary New } }\n',
    path: '/api/classes/v1/classes/12/entities',
  });
  const resumed = await runCli(['run', s.file, '--resume', s.journal, '--in-doubt', 'verify'], { env: s.env });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.match(
    resumed.stdout,
    /^- \[1\/1\] Create an entity: in doubt: verify read the target: applied \(entity \d+ with iname=mnew, ifullname=Mary New: 0 such just before the call, 1 now\); not sent again \(octo-operator@[^)]+\)$/m,
  );
  assert.doesNotMatch(resumed.stdout, /Create an entity: skipped/);
});
