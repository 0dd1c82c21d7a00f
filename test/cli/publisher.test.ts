// The publisher every command publishes through (src/app/channels/channel.ts): its channels told
// in order on one lifecycle; one that throws is a warning (masked) and the next is still told;
// files not written come back (exit 1 at the edge), the outcome unchanged.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { publisher, type Channel, type RunEnded } from '../../src/app/channels/channel.ts';
import type { StepRun } from '../../src/runner/result.ts';

test('channels are told in order; a throwing one is a masked warning and never stops the others', async () => {
  const told: string[] = [];
  const warnings: string[] = [];
  const channel = (name: string, fail = false): Channel => ({
    name,
    started: ({ name: run }) => {
      told.push(`${name} started ${run}`);
      if (fail) throw new Error('refused by https://hooks.example.com/SECRET');
    },
    instanceEnded: (run) => told.push(`${name} instance ${run.name}`),
    ended: (end) => {
      told.push(`${name} ended ${end.outcome}`);
      if (fail) throw new Error('no answer from https://hooks.example.com/SECRET');
      return name === 'files' ? { failed: ['--junit r.xml: ENOSPC SECRET'] } : undefined;
    },
  });
  const publish = publisher([channel('files'), channel('hook', true), channel('summary')], {
    warn: (m) => warnings.push(m),
    mask: (text) => text.replaceAll('SECRET', '***'),
  });
  await publish.started({ name: 'nightly' });
  publish.instanceEnded({ name: 'Clear' } as StepRun);
  const end: RunEnded = { outcome: 'success', markdown: () => '' };
  const failed = await publish.ended(end);
  assert.deepEqual(told, [
    'files started nightly',
    'hook started nightly',
    'summary started nightly',
    'files instance Clear',
    'hook instance Clear',
    'summary instance Clear',
    'files ended success',
    'hook ended success',
    'summary ended success',
  ]);
  assert.deepEqual(warnings, [
    'hook: the start failed: refused by https://hooks.example.com/***',
    'hook: publishing failed: no answer from https://hooks.example.com/***',
  ]);
  assert.deepEqual(failed, ['--junit r.xml: ENOSPC ***']);
  assert.equal(end.outcome, 'success', 'the outcome is what it was');
});
