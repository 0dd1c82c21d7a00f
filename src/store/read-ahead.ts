// Reads of a list of items (each a few keys of a run store), started a bounded number ahead of the
// one being used and handed over in the list's order: a reader of many keys one after another
// (report --merge --store of a sharded run reads each site's record and journal) waits for one
// round trip per `atOnce` items, not one per item, and what it makes of them is as when it read
// them in turn (the first failure, in the list's order, is the one it meets).

/** `read(items[i])` for i = 0, 1, ...: `take(i)` starts the reads up to i + atOnce - 1 (none past the list) and gives read i. */
export function readAhead<T, R>(
  items: readonly T[],
  read: (item: T) => Promise<R>,
  atOnce: number,
): (i: number) => Promise<R> {
  const started: Promise<R>[] = [];
  return (i) => {
    for (let j = started.length; j < Math.min(items.length, i + atOnce); j++) {
      const reading = read(items[j]!);
      // A read past one that failed is never taken: its own failure is not one to report.
      reading.catch(() => undefined);
      started.push(reading);
    }
    return started[i]!;
  };
}
