// A fleet split across CI jobs, as the documented job-per-site workflows run it: each job holds only
// its own site's secrets and runs `--only site=X`.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { SITES, siteSecrets, startSites } from '../helpers/sites.ts';
import { SUMMARY_LIMIT } from '../../src/report/markdown.ts';

test("a job per site runs with only its own site's secrets (run and plan, --only site=X)", async (t) => {
  const { urls, emulators } = await startSites(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-fleet-'));
  for (const site of SITES) {
    const env = siteSecrets(site, urls[site]);
    const plan = await runCli(['plan', 'pipelines/three-site-release.yml', '--only', `site=${site}`], { env });
    assert.equal(plan.code, 0, `${site}: ${plan.stdout}${plan.stderr}`);
    const run = await runCli(
      ['run', 'pipelines/three-site-release.yml', '--only', `site=${site}`, '--report-json', join(dir, `${site}.json`)],
      { env },
    );
    assert.equal(run.code, 0, `${site}: ${run.stdout}${run.stderr}`);
    const report = JSON.parse(readFileSync(join(dir, `${site}.json`), 'utf8')) as {
      steps: { matrix: { site: string } | null; status: string }[];
    };
    assert.deepEqual([...new Set(report.steps.flatMap((s) => (s.matrix ? [s.matrix.site] : [])))], [site]);
    assert.ok(emulators[site].requests.length > 0, `${site}: its own server was called`);
  }
  // Each server knows only its own site's password: a call with another site's would be a 401.
  for (const site of SITES)
    assert.ok(
      emulators[site].requests.every((r) => r.status !== 401),
      `${site}: every call was authorised`,
    );
});

test('a job still needs every secret its own instances use, and says which is missing', async (t) => {
  const { urls } = await startSites(t);
  const env = siteSecrets('staging', urls.staging);
  delete env.STAGING_TOKEN;
  const r = await runCli(['run', 'pipelines/three-site-release.yml', '--only', 'site=staging'], { env });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /sites\.yml:\d+:\d+ secrets\.STAGING_TOKEN is not set/);
  assert.doesNotMatch(r.stderr, /PROD_|TEST_/, "the other sites' secrets are not asked for");
  // Without --only, every site is reached: every site's secrets are asked for.
  const all = await runCli(['run', 'pipelines/three-site-release.yml'], { env: siteSecrets('staging', urls.staging) });
  assert.equal(all.code, 2);
  assert.match(all.stderr, /PROD_ENGINE_URL/);
  assert.match(all.stderr, /TEST_DEPLOY_PASSWORD/);
});

test("a pipeline that includes the inventory but calls one site needs that site's secrets only", async (t) => {
  const { urls } = await startSites(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-fleet-'));
  copyFileSync('pipelines/inventory/sites.yml', join(dir, 'sites.yml'));
  // A server chosen by an expression over a fixed var is known at load, as a plain name is.
  writeFileSync(
    join(dir, 'watch.yml'),
    `version: 1
include: [sites.yml]
vars:
  watched: { main: prod }
steps:
  - uses: monitoring/engines
    matrix: { which: [main] }
    server: \${{ vars.watched[matrix.which] }}
    with: { engines: [eng-prod-01] }
`,
  );
  const r = await runCli(['run', join(dir, 'watch.yml')], { env: siteSecrets('prod', urls.prod) });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  // So is one the environment names.
  writeFileSync(
    join(dir, 'env.yml'),
    `version: 1
include: [sites.yml]
steps:
  - uses: monitoring/engines
    matrix: { which: [main] }
    server: \${{ env.WHICH_SITE }}
`,
  );
  const env = await runCli(['run', join(dir, 'env.yml')], {
    env: { ...siteSecrets('prod', urls.prod), WHICH_SITE: 'prod' },
  });
  assert.equal(env.code, 0, env.stdout + env.stderr);
  // A server chosen by what only the run knows (a var read from a secret) may be any: every server's secrets are asked for.
  writeFileSync(
    join(dir, 'any.yml'),
    `version: 1
include: [sites.yml]
vars:
  where: \${{ secrets.WHICH_SITE }}
steps:
  - uses: monitoring/engines
    matrix: { which: [main] }
    server: \${{ vars.where }}
`,
  );
  const any = await runCli(['run', join(dir, 'any.yml')], {
    env: { ...siteSecrets('prod', urls.prod), WHICH_SITE: 'prod' },
  });
  assert.equal(any.code, 2, any.stdout + any.stderr);
  assert.match(any.stderr, /TEST_ENGINE_URL/);
});

/** A value without its timings (any field ending in At, durations), which differ between two runs of one release. */
function timeless(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(timeless);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !/At$|^durationMs$/.test(k))
        .map(([k, v]) => [k, timeless(v)]),
    );
  return value;
}

/** What one run of the fleet and the merge of its jobs must both say. */
function comparable(report: Record<string, unknown>) {
  return timeless({
    pipeline: report.pipeline,
    outcome: report.outcome,
    counts: report.counts,
    matrix: report.matrix,
    steps: report.steps,
  });
}

test('report --merge of the three jobs\' JSON reports equals one run of the whole fleet; a missing job is "no report"', async (t) => {
  const { urls } = await startSites(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-merge-'));
  for (const site of SITES) {
    const run = await runCli(
      ['run', 'pipelines/three-site-release.yml', '--only', `site=${site}`, '--report-json', join(dir, `${site}.json`)],
      { env: siteSecrets(site, urls[site]) },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
  }
  // The same release in one run, on servers in the state the jobs found.
  const fresh = await startSites(t);
  const everySecret = Object.assign({}, ...SITES.map((s) => siteSecrets(s, fresh.urls[s]))) as Record<string, string>;
  const whole = await runCli(['run', 'pipelines/three-site-release.yml', '--report-json', join(dir, 'whole.json')], {
    env: everySecret,
  });
  assert.equal(whole.code, 0, whole.stdout + whole.stderr);

  const out = (name: string) => [
    '--report-json',
    join(dir, `${name}.json`),
    '--summary',
    join(dir, `${name}.md`),
    '--junit',
    join(dir, `${name}.xml`),
    '--html',
    join(dir, `${name}.html`),
  ];
  const merged = await runCli(['report', '--merge', ...SITES.map((s) => join(dir, `${s}.json`)), ...out('merged')]);
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
  assert.match(merged.stdout, /✔ site=test: success \(4 step run\(s\): 4 succeeded\)/);
  assert.match(
    merged.stdout,
    /fleet "Release 2026\.11 at three sites": success .*3 job report\(s\); 10 step run\(s\): 10 succeeded/,
  );
  const read = (name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>;
  assert.deepEqual(comparable(read('merged.json')), comparable(read('whole.json')));
  assert.deepEqual((read('merged.json').merged as { noReport: string[] }).noReport, []);
  // Under a CI system the fleet's summary goes where it shows one: Azure's run page, GitHub's job summary.
  const azure = await runCli(
    ['report', '--merge', ...SITES.map((s) => join(dir, `${s}.json`)), '--summary', join(dir, 'azure.md')],
    { env: { TF_BUILD: 'True' } },
  );
  assert.equal(azure.code, 0, azure.stdout + azure.stderr);
  assert.ok(azure.stdout.includes(`##vso[task.uploadsummary]${join(dir, 'azure.md')}`), azure.stdout);
  assert.match(azure.stdout, /##vso\[task\.complete result=Succeeded;\]/);
  writeFileSync(join(dir, 'step-summary.md'), '');
  const github = await runCli(['report', '--merge', ...SITES.map((s) => join(dir, `${s}.json`))], {
    env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(dir, 'step-summary.md') },
  });
  assert.equal(github.code, 0, github.stdout + github.stderr);
  assert.match(readFileSync(join(dir, 'step-summary.md'), 'utf8'), /### Jobs[\s\S]*\| ✅ \| site=prod \| success \|/);

  // The prod job died: its site is "no report", and the fleet fails in every report.
  const partial = await runCli([
    'report',
    '--merge',
    join(dir, 'test.json'),
    join(dir, 'staging.json'),
    ...out('partial'),
  ]);
  assert.equal(partial.code, 1, partial.stdout + partial.stderr);
  assert.match(partial.stdout, /✖ site=prod: no report: its job died or never ran/);
  const report = read('partial.json') as {
    outcome: string;
    merged: { noReport: string[]; reports: { limitedTo: string }[] };
  };
  assert.equal(report.outcome, 'failure');
  assert.deepEqual(report.merged.noReport, ['site=prod']);
  assert.deepEqual(
    report.merged.reports.map((r) => r.limitedTo),
    ['site=test', 'site=staging'],
  );
  assert.match(
    readFileSync(join(dir, 'partial.md'), 'utf8'),
    /\| ⛔ \| site=prod \| no report \| no report: its job died or never ran \|/,
  );
  assert.match(
    readFileSync(join(dir, 'partial.xml'), 'utf8'),
    /<testcase name="no report \(site=prod\)"[^>]*>\s*<failure type="NO_REPORT"/,
  );
  assert.match(readFileSync(join(dir, 'partial.html'), 'utf8'), /no report<\/span><\/td><td>site=prod/);

  // A journal merges as its report does.
  const journal = await runCli(
    ['run', 'pipelines/three-site-release.yml', '--only', 'site=prod', '--journal', join(dir, 'prod.journal.jsonl')],
    { env: siteSecrets('prod', urls.prod) },
  );
  assert.equal(journal.code, 0, journal.stdout + journal.stderr);
  const mixed = await runCli([
    'report',
    '--merge',
    join(dir, 'test.json'),
    join(dir, 'staging.json'),
    join(dir, 'prod.journal.jsonl'),
    '--report-json',
    join(dir, 'mixed.json'),
  ]);
  assert.equal(mixed.code, 0, mixed.stdout + mixed.stderr);
  assert.deepEqual((read('mixed.json').merged as { noReport: string[] }).noReport, []);
});

test('report --merge refuses reports of another pipeline (unless --force), an instance in two reports, and a file that is no report', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-merge-'));
  // The demo run on prod alone fails its last gate (staging is not updated): its report is merged all the same.
  const demo = await runCli([
    'run',
    'pipelines/demo.yml',
    '--emulator',
    '--only',
    'target=prod',
    '--report-json',
    join(dir, 'demo.json'),
  ]);
  assert.equal(demo.code, 1, demo.stdout + demo.stderr);
  const other = await runCli(
    [
      'run',
      'pipelines/multi-target-release.yml',
      '--emulator',
      '--only',
      'target=staging',
      '--report-json',
      join(dir, 'other.json'),
    ],
    { env: { STAGING_TOKEN: 'staging-token', PROD_DEPLOY_PASSWORD: 'deploy-pass', PROD_TOKEN: 'prod-token' } },
  );
  assert.equal(other.code, 0, other.stdout + other.stderr);
  const mismatch = await runCli(['report', '--merge', join(dir, 'demo.json'), join(dir, 'other.json')]);
  assert.equal(mismatch.code, 2);
  assert.match(mismatch.stderr, /other\.json is a report of another pipeline than .*demo\.json[\s\S]*hint: .*--force/);
  const forced = await runCli(['report', '--merge', '--force', join(dir, 'demo.json'), join(dir, 'other.json')]);
  assert.equal(forced.code, 1, forced.stdout + forced.stderr);
  assert.match(forced.stdout, /fleet "Release 2026\.11 \(demo\)": failure .*2 job report\(s\)/);
  // Two reports of the same job (two attempts) overlap; the same file given twice is said as such.
  copyFileSync(join(dir, 'demo.json'), join(dir, 'demo-again.json'));
  const twice = await runCli(['report', '--merge', join(dir, 'demo.json'), join(dir, 'demo-again.json')]);
  assert.equal(twice.code, 2);
  assert.match(twice.stderr, /both have step \d+ \(target=prod\)/);
  writeFileSync(join(dir, 'not.json'), '{"hello": 1}');
  const bad = await runCli(['report', '--merge', join(dir, 'not.json')]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /not\.json is not a JSON report of this enginectl/);
  assert.doesNotMatch(bad.stderr, /\n\s+at /, 'no stack trace');
});

test("report --merge given a file that is neither a JSON report nor a journal (a job's Markdown summary) says so, exit 2", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-merge-md-'));
  writeFileSync(
    join(dir, 'summary.md'),
    '# Release 2026.11\n\n| step | outcome |\n|---|---|\n| Clear the log at test | ✅ success |\n',
  );
  const r = await runCli(['report', '--merge', join(dir, 'summary.md')]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(
    r.stderr,
    /^enginectl: report --merge: .*summary\.md is neither a JSON report \(--report-json\) nor a journal \(--journal\)\n {2}hint: /,
  );
  assert.doesNotMatch(r.stderr, /damaged record|checksum/);
});

test('the pipeline hash a report carries is no offline check of a credential written in the file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-hash-'));
  const text =
    'version: 1\nsteps:\n  - uses: update/vfs\n    with: { target: { server: prod-db.example.com, database: PROD, token: prod-token }, files: [1001] }\n';
  writeFileSync(join(dir, 'p.yml'), text);
  const sha = async (name: string) => {
    const r = await runCli(['run', join(dir, 'p.yml'), '--emulator', '--report-json', join(dir, name)]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    return (JSON.parse(readFileSync(join(dir, name), 'utf8')) as { pipeline: { sha256: string } }).pipeline.sha256;
  };
  const first = await sha('a.json');
  assert.match(first, /^sha256:[0-9a-f]{64}$/);
  assert.equal(await sha('b.json'), first, 'the same files give the same hash: the jobs of one release compare equal');
  const { createHash } = await import('node:crypto');
  const plain = createHash('sha256')
    .update(JSON.stringify([['p.yml', text]]))
    .digest('hex');
  assert.notEqual(first, `sha256:${plain}`, 'the file is hashed with its literal token masked');
  assert.equal(readFileSync(join(dir, 'a.json'), 'utf8').includes('prod-token'), false);
});

test("300 jobs' reports merge into a summary within the 1 MiB limit, a row for every job", async (t) => {
  const { urls } = await startSites(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-merge-300-'));
  const run = await runCli(
    ['run', 'pipelines/three-site-release.yml', '--only', 'site=test', '--report-json', join(dir, 'test.json')],
    { env: siteSecrets('test', urls.test) },
  );
  assert.equal(run.code, 0, run.stdout + run.stderr);
  // One real job's report, as the jobs of a 300-site fleet would each write it.
  const template = readFileSync(join(dir, 'test.json'), 'utf8');
  const sites = Array.from({ length: 300 }, (_, i) => `site-${String(i + 1).padStart(3, '0')}`);
  const files = sites.map((site) => {
    const report = JSON.parse(
      template.replaceAll('"site":"test"', `"site":"${site}"`).replaceAll('"site": "test"', `"site": "${site}"`),
    ) as Record<string, unknown>;
    report.matrix = { site: sites };
    report.selection = { only: { site: [site] }, skip: {} };
    const file = join(dir, `${site}.json`);
    writeFileSync(file, JSON.stringify(report));
    return file;
  });
  const merged = await runCli([
    'report',
    '--merge',
    ...files,
    '--summary',
    join(dir, 'fleet.md'),
    '--report-json',
    join(dir, 'fleet.json'),
  ]);
  assert.equal(merged.code, 0, merged.stdout.slice(-2000) + merged.stderr);
  const summary = readFileSync(join(dir, 'fleet.md'));
  assert.ok(summary.length <= SUMMARY_LIMIT, `the summary is ${summary.length} bytes`);
  const text = summary.toString('utf8');
  for (const site of sites) assert.ok(text.includes(`| ✅ | site=${site} | success |`), `a row for ${site}`);
  const fleet = JSON.parse(readFileSync(join(dir, 'fleet.json'), 'utf8')) as {
    counts: { total: number };
    merged: { reports: unknown[] };
  };
  assert.equal(fleet.merged.reports.length, 300);
  assert.equal(fleet.counts.total, 300 * 3 + 1, 'three steps per site and the final check once');
});

test('report --merge covers only the instances its reports hold: a whole run of another --var is another fleet, refused; forced, the site no job ran is "no report"', async (t) => {
  const { urls } = await startSites(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-merge-vars-'));
  const one = await runCli(
    ['run', 'pipelines/three-site-release.yml', '--only', 'site=test', '--report-json', join(dir, 'test.json')],
    { env: siteSecrets('test', urls.test) },
  );
  assert.equal(one.code, 0, one.stdout + one.stderr);
  // Job 2 ran the whole pipeline over a fleet of one site: no --only, yet it covers staging alone.
  const two = await runCli(
    ['run', 'pipelines/three-site-release.yml', '--var', 'sites=[staging]', '--report-json', join(dir, 'staging.json')],
    { env: siteSecrets('staging', urls.staging) },
  );
  assert.equal(two.code, 0, two.stdout + two.stderr);
  const merged = await runCli([
    'report',
    '--merge',
    join(dir, 'test.json'),
    join(dir, 'staging.json'),
    '--report-json',
    join(dir, 'merged.json'),
  ]);
  assert.equal(merged.code, 2, merged.stdout + merged.stderr);
  assert.match(
    merged.stderr,
    /report --merge: .*staging\.json is a report of another pipeline than .*test\.json .*other --var values/,
  );
  assert.doesNotMatch(merged.stdout, /success/);
  const forced = await runCli([
    'report',
    '--merge',
    '--force',
    join(dir, 'test.json'),
    join(dir, 'staging.json'),
    '--report-json',
    join(dir, 'forced.json'),
  ]);
  assert.equal(forced.code, 1, forced.stdout + forced.stderr);
  assert.match(forced.stdout, /✖ site=prod: no report: its job died or never ran/);
  const report = JSON.parse(readFileSync(join(dir, 'forced.json'), 'utf8')) as {
    outcome: string;
    merged: { noReport: string[] };
  };
  assert.equal(report.outcome, 'failure');
  assert.deepEqual(report.merged.noReport, ['site=prod']);
  // A report edited to say it ran every instance (no selection) still covers only the ones it holds.
  const edited = JSON.parse(readFileSync(join(dir, 'test.json'), 'utf8')) as Record<string, unknown>;
  edited.selection = null;
  writeFileSync(join(dir, 'test-whole.json'), JSON.stringify(edited));
  const alone = await runCli([
    'report',
    '--merge',
    join(dir, 'test-whole.json'),
    '--report-json',
    join(dir, 'alone.json'),
  ]);
  assert.equal(alone.code, 1, alone.stdout + alone.stderr);
  assert.deepEqual(
    (JSON.parse(readFileSync(join(dir, 'alone.json'), 'utf8')) as { merged: { noReport: string[] } }).merged.noReport,
    ['site=staging', 'site=prod'],
  );
});

test("report --merge decides a job's outcome by its steps, not by what its report says; a job report's fields reach the summary as text", async (t) => {
  const { urls } = await startSites(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-merge-edited-'));
  for (const site of SITES) {
    const run = await runCli(
      ['run', 'pipelines/three-site-release.yml', '--only', `site=${site}`, '--report-json', join(dir, `${site}.json`)],
      { env: siteSecrets(site, urls[site]) },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
  }
  // The prod job's report, edited: its Engines gate failed, yet it says success; its step type carries HTML.
  const prod = JSON.parse(readFileSync(join(dir, 'prod.json'), 'utf8')) as {
    outcome: string;
    steps: { id: string | null; uses: string; outcome: string; error: unknown }[];
  };
  const gate = prod.steps.find((s) => s.id === 'engines')!;
  gate.outcome = 'failure';
  gate.error = { code: 'GATE_FAILED', message: 'eng-prod-01 is offline', hint: null };
  gate.uses = 'monitoring/engines` <img src=x onerror=alert(1)> `';
  assert.equal(prod.outcome, 'success');
  writeFileSync(join(dir, 'prod.json'), JSON.stringify(prod));
  // The first report's tool version, which the fleet's header shows, carries HTML too.
  const first = JSON.parse(readFileSync(join(dir, 'test.json'), 'utf8')) as { tool: { version: string } };
  first.tool.version = '0.0.0 <img src=y>';
  writeFileSync(join(dir, 'test.json'), JSON.stringify(first));
  const merged = await runCli([
    'report',
    '--merge',
    ...SITES.map((s) => join(dir, `${s}.json`)),
    '--summary',
    join(dir, 'fleet.md'),
    '--report-json',
    join(dir, 'fleet.json'),
  ]);
  assert.equal(merged.code, 1, merged.stdout + merged.stderr);
  assert.match(merged.stdout, /✖ site=prod: failure/);
  assert.match(merged.stdout, /fleet "Release 2026\.11 at three sites": failure/);
  const fleet = JSON.parse(readFileSync(join(dir, 'fleet.json'), 'utf8')) as {
    outcome: string;
    merged: { reports: { outcome: string }[] };
  };
  assert.equal(fleet.outcome, 'failure');
  assert.deepEqual(
    fleet.merged.reports.map((r) => r.outcome),
    ['success', 'success', 'failure'],
  );
  const md = readFileSync(join(dir, 'fleet.md'), 'utf8');
  const { Marked } = await import('marked');
  const html = new Marked({ gfm: true, async: false }).parse(md) as string;
  assert.doesNotMatch(html, /<img/i, 'no image from a job report');
  assert.match(html, /onerror=alert\(1\)/, 'the step type is shown, as text');
});
