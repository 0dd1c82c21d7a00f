// A hash of values that compares across runs and machines (a saved plan against the run that
// uses it): SHA-256 of their canonical JSON, keys in order. For values that are no secret
// (--var values are shown as given); the journal keys its hashes instead (journal/hashing.ts).
import { createHash } from 'node:crypto';
import { canonical } from '../journal/hashing.ts';

export function valuesHashPlain(values: unknown): string {
  return `sha256:${createHash('sha256').update(canonical(values)).digest('hex')}`;
}
