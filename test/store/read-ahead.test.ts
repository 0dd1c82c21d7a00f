// Reads started a bounded number ahead (store/read-ahead.ts), as the merged report of a sharded run
// reads its sites: never more than `atOnce` started past the one taken, each handed over in order
// whatever order they end in, and the first failure in the list's order the one met (a later read's
// failure neither thrown nor left unhandled).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readAhead } from '../../src/store/read-ahead.ts';

/** A read of each item that ends only when the test settles it. */
function heldReads(count: number) {
  const settle = new Map<number, { resolve: (v: string) => void; reject: (e: Error) => void }>();
  const started: number[] = [];
  const read = (i: number) =>
    new Promise<string>((resolve, reject) => {
      started.push(i);
      settle.set(i, { resolve, reject });
    });
  return { items: Array.from({ length: count }, (_, i) => i), read, started, settle };
}

test('reads start at most atOnce ahead of the one taken, and are handed over in order whatever order they end in', async () => {
  const r = heldReads(10);
  const take = readAhead(r.items, r.read, 3);
  const first = take(0);
  assert.deepEqual(r.started, [0, 1, 2]);
  // Ended out of order: 2, then 0.
  r.settle.get(2)!.resolve('two');
  r.settle.get(0)!.resolve('zero');
  assert.equal(await first, 'zero');
  assert.deepEqual(r.started, [0, 1, 2], 'nothing more started before the next is taken');
  const second = take(1);
  assert.deepEqual(r.started, [0, 1, 2, 3]);
  r.settle.get(1)!.resolve('one');
  assert.equal(await second, 'one');
  assert.equal(await take(2), 'two');
  assert.deepEqual(r.started, [0, 1, 2, 3, 4]);
  // Near the end: nothing past the list.
  for (const i of [3, 4, 5, 6, 7, 8, 9]) {
    const p = take(i);
    r.settle.get(i)!.resolve(String(i));
    assert.equal(await p, String(i));
  }
  assert.deepEqual(r.started, r.items);
});

test('the first failure in the order of the list is the one met; a later read that failed first is not thrown, nor left unhandled', async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    const r = heldReads(6);
    const take = readAhead(r.items, r.read, 4);
    const first = take(0);
    r.settle.get(3)!.reject(new Error('read 3 failed'));
    r.settle.get(1)!.reject(new Error('read 1 failed'));
    r.settle.get(0)!.resolve('zero');
    assert.equal(await first, 'zero');
    await assert.rejects(take(1), /read 1 failed/);
    // The reader stops at its failure: read 5 is never started, read 3's failure never met.
    assert.deepEqual(r.started, [0, 1, 2, 3, 4]);
    // A turn of the event loop, for an unhandled rejection to be reported.
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.deepEqual(unhandled, []);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});
