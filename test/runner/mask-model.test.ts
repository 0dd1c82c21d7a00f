// A run's result masked through its model (runner/mask-model.ts): what comes from outside is masked
// exactly as the blind walk (Masker.maskValue) masks it, keys of the data included; the model's
// own keys and its typed fields never are; nothing is copied twice.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newInstance } from '../../src/runner/instance.ts';
import { maskRun } from '../../src/runner/mask-model.ts';
import { Masker } from '../../src/runner/masker.ts';
import type { RunResult } from '../../src/runner/result.ts';
import { fleetRun } from '../helpers/fleet-report.ts';

test('secrets only in the data of a result (names, matrix values, messages, answers): masked as the blind walk masks them', () => {
  const result = fleetRun(600);
  const masker = new Masker();
  // A site's name is in instance names, keys, matrix values, servers, error messages, update
  // reports, a rollout's values and its failed ones; the token in no field at all.
  for (const secret of ['site-00500', 'site-00001', 'PROD on prod-db', 'unused-token']) masker.add(secret);
  const typed = maskRun(masker, result);
  assert.deepEqual(typed, masker.maskValue(result));
  assert.match(JSON.stringify(typed), /\*\*\*/);
  assert.equal(maskRun(masker, typed), typed, 'masked again: nothing changes, nothing is copied');
});

test('a secret equal to a word of the model masks it in the data, never in the envelope', () => {
  const masker = new Masker();
  for (const secret of ['success', 'outcome', 'inputs', 'steps', 'code', 'uses', 'assert', 'message', 'over', 'done'])
    masker.add(secret);
  masker.add('Answer-Key');
  const run = newInstance(
    { key: '0', step: 0, name: 'success', uses: 'assert', matrix: { site: 'done' } },
    {
      outcome: 'success',
      inputs: { message: 'outcome' },
      outputs: { answer: { 'Answer-Key': 'steps' } },
      result: { 'Answer-Key': { success: true } },
      error: { code: 'STEP_ERROR', message: 'inputs: success' },
      warnings: ['done'],
    },
  );
  const result: RunResult = {
    file: 'p.yml',
    name: 'steps',
    outcome: 'success',
    startedAt: 0,
    durationMs: 1,
    steps: [run],
    matrix: { site: ['done', 'other'] },
    rollout: { over: 'site', waves: [{ wave: 1, values: ['done'], outcome: 'done', failed: [], budget: 0 }] },
  };
  const masked = maskRun(masker, result);
  assert.deepEqual(masked, {
    file: 'p.yml',
    name: '***',
    outcome: 'success',
    startedAt: 0,
    durationMs: 1,
    steps: [
      {
        key: '0',
        step: 0,
        name: '***',
        uses: 'assert',
        matrix: { site: '***' },
        outcome: 'success',
        continuedOnError: false,
        attempts: 0,
        inputs: { '***': '***' },
        outputs: { answer: { '***': '***' } },
        error: { code: 'STEP_ERROR', message: '***: ***' },
        warnings: ['***'],
        result: { '***': { '***': true } },
      },
    ],
    matrix: { site: ['***', 'other'] },
    rollout: { over: 'site', waves: [{ wave: 1, values: ['***'], outcome: 'done', failed: [], budget: 0 }] },
  });
  assert.equal(result.steps[0]!.inputs.message, 'outcome', 'the original is not changed');
});
