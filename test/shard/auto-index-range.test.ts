// --shard auto reads the worker's index from the engine that runs it: an index the run does not
// have is told in that engine's terms, naming the variable and the value it holds and what to set,
// never as a shard number the user did not give ("shard index 4 is out of range" for a Kubernetes
// JOB_COMPLETION_INDEX=3, which counts from 0). Refused before anything is sent (SHARD_REFUSED, exit 2).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { shardFleet } from './helpers.ts';

test("--shard auto: an index past the run's shards is told as the engine's variable and what to set (Kubernetes, GitLab)", async (t) => {
  const f = await shardFleet(t, 6, '  over: site\n  waves: [rest]');
  const run = (await f.shard('--shards', '3')).run;
  const auto = (env: Record<string, string>) =>
    runCli(['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', 'auto'], { env: { ...f.env, ...env } });

  const k8s = await auto({ JOB_COMPLETION_INDEX: '3' });
  assert.equal(k8s.code, 2, k8s.stdout + k8s.stderr);
  assert.doesNotMatch(k8s.stderr, /shard index 4/);
  assert.match(
    k8s.stderr,
    new RegExp(
      `JOB_COMPLETION_INDEX=3 is past run ${run}'s 3 shards \\(an Indexed Job counts from 0: 0 to 2\\): the Job's completions exceed the run's 3 shards`,
    ),
  );
  assert.match(
    k8s.stderr,
    /hint: set the Job's completions to 3 \(spec\.completions, as enginectl shard --format k8s printed it\)/,
  );
  assert.match(k8s.stderr, /code: SHARD_REFUSED/);

  // GitLab's parallel: N numbers its jobs 1 to N, and says N.
  const total = await auto({ GITLAB_CI: 'true', CI_NODE_INDEX: '4', CI_NODE_TOTAL: '4' });
  assert.equal(total.code, 2, total.stdout + total.stderr);
  assert.doesNotMatch(total.stderr, /this worker was told 4/);
  assert.match(
    total.stderr,
    new RegExp(`CI_NODE_TOTAL=4: this job runs as 4 parallel jobs, but run ${run} has 3 shards`),
  );
  assert.match(total.stderr, /hint: set the job's parallel: to 3/);

  const index = await auto({ GITLAB_CI: 'true', CI_NODE_INDEX: '4' });
  assert.equal(index.code, 2, index.stdout + index.stderr);
  assert.doesNotMatch(index.stderr, /shard index 4/);
  assert.match(
    index.stderr,
    new RegExp(`CI_NODE_INDEX=4 is past run ${run}'s 3 shards \\(GitLab counts from 1: 1 to 3\\)`),
  );
  assert.match(index.stderr, /hint: set the job's parallel: to 3/);

  assert.deepEqual(f.applied('/update/system'), {}, 'nothing sent');
});
