// The Kubernetes Indexed Job of a sharded run: the manifest `enginectl shard --format k8s` prints,
// and the one docs/ci/kubernetes.md shows, are valid against the Kubernetes API's schema (the
// kubernetes-models package's validators of batch/v1 Job), map the workers' exit codes as the
// docs say, and agree with each other; a broken manifest is refused by the same check, so it
// cannot pass for want of checking.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { Job } from 'kubernetes-models/batch/v1';
import { parse } from 'yaml';
import { runCli } from '../helpers/cli.ts';
import { shardFleet } from './helpers.ts';

interface Rule {
  action: string;
  onExitCodes?: { containerName: string; operator: string; values: number[] };
  onPodConditions?: { type: string }[];
}
interface JobManifest {
  metadata: { name: string; labels: Record<string, string> };
  spec: {
    completionMode: string;
    completions: number;
    parallelism: number;
    backoffLimitPerIndex: number;
    podFailurePolicy: { rules: Rule[] };
    template: {
      spec: {
        restartPolicy: string;
        containers: {
          name: string;
          image: string;
          args: string[];
          env: { name: string; value: string }[];
          envFrom?: unknown[];
        }[];
      };
    };
  };
}

const docsManifest = (): JobManifest => {
  const doc = readFileSync(new URL('../../docs/ci/kubernetes.md', import.meta.url), 'utf8');
  const blocks = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => parse(m[1]!) as JobManifest);
  assert.equal(blocks.length, 1, 'the page shows one Job');
  return blocks[0]!;
};

/** What the Job does with an index whose worker exited with `code`. */
function actionFor(job: JobManifest, code: number): string {
  const rule = job.spec.podFailurePolicy.rules.find((r) => r.onExitCodes?.values.includes(code));
  return rule?.action ?? 'count against backoffLimitPerIndex';
}

async function printed(t: TestContext, shards: number) {
  const f = await shardFleet(t, 24, '  over: site\n  waves: [[site-0001], 25%, rest]\n  max-failures: 1');
  // In a project's checkout: the worker's args name the pipeline as shard was given it.
  const project = mkdtempSync(join(tmpdir(), 'enginectl-k8s-'));
  mkdirSync(join(project, 'pipelines'));
  copyFileSync(f.file, join(project, 'pipelines/fleet.yml'));
  const r = await runCli(
    [
      'shard',
      'pipelines/fleet.yml',
      '--store',
      f.storeUrl,
      '--shards',
      String(shards),
      '--format',
      'k8s',
      '--image',
      'registry.example.com/acme/fleet-release:2026.11',
    ],
    { env: f.env, cwd: project },
  );
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const run = /^run (\S+) in /m.exec(r.stderr)?.[1];
  assert.ok(run, r.stderr);
  return { job: parse(r.stdout) as JobManifest, run, storeUrl: f.storeUrl };
}

const validate = (job: unknown) => new Job(job as ConstructorParameters<typeof Job>[0]).validate();

test('the Job enginectl shard --format k8s prints is a valid batch/v1 Indexed Job: one pod per shard, the exit codes mapped', async (t) => {
  const { job, run, storeUrl } = await printed(t, 20);
  assert.doesNotThrow(() => validate(job));
  assert.equal(job.spec.completionMode, 'Indexed');
  assert.equal(job.spec.completions, 20);
  assert.equal(job.spec.parallelism, 20);
  assert.ok(job.spec.backoffLimitPerIndex >= 1, 'an index is retried on its own');
  assert.equal(job.spec.template.spec.restartPolicy, 'Never', 'a podFailurePolicy needs restartPolicy: Never');
  const [worker] = job.spec.template.spec.containers;
  assert.equal(worker!.image, 'registry.example.com/acme/fleet-release:2026.11');
  assert.deepEqual(worker!.args, ['run', 'pipelines/fleet.yml', '--shard', 'auto']);
  assert.deepEqual(worker!.env, [
    { name: 'ENGINECTL_STORE', value: storeUrl },
    { name: 'ENGINECTL_RUN', value: run },
  ]);
  // Every rule names the container that exists.
  for (const rule of job.spec.podFailurePolicy.rules)
    if (rule.onExitCodes) assert.equal(rule.onExitCodes.containerName, worker!.name);
  // The mapping docs/ci/kubernetes.md explains.
  assert.equal(actionFor(job, 1), 'FailIndex');
  assert.equal(actionFor(job, 2), 'FailIndex');
  assert.equal(actionFor(job, 75), 'Ignore');
  assert.equal(actionFor(job, 69), 'count against backoffLimitPerIndex');
  assert.equal(actionFor(job, 143), 'count against backoffLimitPerIndex');
  assert.ok(
    job.spec.podFailurePolicy.rules.some(
      (r) => r.action === 'Ignore' && r.onPodConditions?.some((c) => c.type === 'DisruptionTarget'),
    ),
    'an evicted pod counts no failure',
  );
  // A Kubernetes name: at most 63 characters of [a-z0-9-], as the label of the run.
  assert.match(job.metadata.name, /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/);
  assert.equal(job.metadata.labels['enginectl/run'], run.toLowerCase());
});

test('the check refuses a broken Job: a wrong completionMode, an unknown podFailurePolicy action or operator, a string index limit, a missing container', async (t) => {
  const { job } = await printed(t, 3);
  const broken: [string, (j: JobManifest) => void, RegExp][] = [
    ['completionMode', (j) => (j.spec.completionMode = 'Indexd'), /completionMode/],
    ['action', (j) => (j.spec.podFailurePolicy.rules[0]!.action = 'Retry'), /action/],
    ['operator', (j) => (j.spec.podFailurePolicy.rules[0]!.onExitCodes!.operator = 'Is'), /operator/],
    ['exit code', (j) => (j.spec.podFailurePolicy.rules[0]!.onExitCodes!.values = ['1' as never]), /values/],
    ['backoffLimitPerIndex', (j) => (j.spec.backoffLimitPerIndex = 'three' as never), /backoffLimitPerIndex/],
    ['restartPolicy', (j) => (j.spec.template.spec.restartPolicy = 'Sometimes'), /restartPolicy/],
    ['containers', (j) => delete (j.spec.template.spec as { containers?: unknown }).containers, /containers/],
  ];
  for (const [what, breakIt, says] of broken) {
    const copy = structuredClone(job);
    breakIt(copy);
    assert.throws(() => validate(copy), says, what);
  }
});

test("docs/ci/kubernetes.md's Job is valid against the Kubernetes API schema and is the one shard --format k8s prints, the secrets added", async (t) => {
  const docs = docsManifest();
  assert.doesNotThrow(() => validate(docs));
  const { job } = await printed(t, 20);
  // As printed, but for the run's id (each shard call is a new run), the store and the envFrom the page adds.
  assert.deepEqual(
    { ...docs.spec, template: undefined },
    { ...job.spec, template: undefined },
    'completions, the index limit and the exit codes as shard prints them',
  );
  const [shown] = docs.spec.template.spec.containers;
  const [made] = job.spec.template.spec.containers;
  assert.equal(shown!.name, made!.name);
  assert.equal(shown!.image, made!.image);
  assert.deepEqual(shown!.args, made!.args);
  assert.deepEqual(
    shown!.env.map((e) => e.name),
    made!.env.map((e) => e.name),
  );
  assert.deepEqual(shown!.envFrom, [{ secretRef: { name: 'fleet-release' } }]);
  assert.equal(docs.spec.template.spec.restartPolicy, job.spec.template.spec.restartPolicy);
  // The run the page names is the one its merge command and its label name.
  const run = shown!.env.find((e) => e.name === 'ENGINECTL_RUN')!.value;
  assert.equal(docs.metadata.labels['enginectl/run'], run.toLowerCase());
  assert.equal(docs.metadata.name, `enginectl-${run.toLowerCase()}`);
  const doc = readFileSync(new URL('../../docs/ci/kubernetes.md', import.meta.url), 'utf8');
  assert.ok(doc.includes(`report --merge --store s3://acme-enginectl-runs/prod --run ${run}`));
  // Its exit codes as the table says.
  for (const [code, action] of [
    [1, 'FailIndex'],
    [2, 'FailIndex'],
    [75, 'Ignore'],
    [69, 'count against backoffLimitPerIndex'],
  ] as const)
    assert.equal(actionFor(docs, code), action, `exit ${code}`);
});

test("a --var value with spaces reaches the Job's worker as one argument, as shard was given it", async (t) => {
  const f = await shardFleet(t, 4, '  over: site\n  waves: [rest]');
  const r = await runCli(
    [
      'shard',
      f.file,
      '--store',
      f.storeUrl,
      '--shards',
      '2',
      '--format',
      'k8s',
      '--var',
      'sites=[site-0001, site-0002]',
    ],
    { env: f.env },
  );
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const job = parse(r.stdout) as JobManifest;
  assert.deepEqual(job.spec.template.spec.containers[0]!.args, [
    'run',
    f.file,
    '--var',
    'sites=[site-0001, site-0002]',
    '--shard',
    'auto',
  ]);
  const plain = await runCli(
    // A second plan of the same fleet, its first not ended: on purpose.
    ['shard', f.file, '--store', f.storeUrl, '--shards', '2', '--var', 'sites=[site-0001, site-0002]', '--new-run'],
    {
      env: f.env,
    },
  );
  assert.match(plain.stdout, /--var 'sites=\[site-0001, site-0002\]' --store /);
});

test("a --var value holding $ reaches the Job's worker as shard was given it: Kubernetes expands $(NAME) and reduces $$ in a container's args and env values, so each $ is written $$", async (t) => {
  const f = await shardFleet(t, 4, '  over: site\n  waves: [rest]');
  writeFileSync(f.file, readFileSync(f.file, 'utf8').replace('\nvars:\n', '\nvars:\n  note: none\n'));
  const r = await runCli(
    ['shard', f.file, '--store', f.storeUrl, '--shards', '2', '--format', 'k8s', '--var', 'note=$(HOSTNAME) costs $$5'],
    { env: f.env },
  );
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const job = parse(r.stdout) as JobManifest;
  assert.deepEqual(job.spec.template.spec.containers[0]!.args, [
    'run',
    f.file,
    '--var',
    'note=$$(HOSTNAME) costs $$$$5',
    '--shard',
    'auto',
  ]);
});
