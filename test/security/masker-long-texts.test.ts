// A long text (an update's report) is searched once per set of secrets, not once per place it
// appears; a secret learnt later (a license code a step created) is still masked in it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Masker } from '../../src/runner/masker.ts';

test('a long text masked once is masked again when a secret is learnt after it', () => {
  const masker = new Masker();
  masker.add('prod-token-123', 'target token');
  const report = `${'| file | updated |\n'.repeat(10_000)}code LIC-9f8e7d6c5b4a issued; token prod-token-123\n`;
  assert.ok(report.length > 1 << 16);
  const first = masker.mask(report);
  assert.doesNotMatch(first, /prod-token-123/);
  assert.match(first, /LIC-9f8e7d6c5b4a/);
  assert.equal(masker.mask(report), first, 'the same text, the same secrets: the same answer');
  masker.add('LIC-9f8e7d6c5b4a', 'license code');
  const later = masker.mask(report);
  assert.doesNotMatch(later, /LIC-9f8e7d6c5b4a|prod-token-123/, 'the secret learnt later is masked too');
  assert.equal(masker.mask(first), later, 'and in the text masked before it was learnt');
});
