// Reads a step makes at once (licensing/check: licenses and products), and which failure it
// names. Named by the first to fail in time, a site that fails every read (unreachable) was told
// by a different GET from run to run; a read's own order decides instead: when one fails, the
// reads after it are stopped (none of them can be the one named) and those before it go on to
// their own end, so the error is that of the first read in the list that failed.

/** Every read's value, in order; or the error of the first read, in the list's order, that failed. No read outlives it. */
export async function readsInOrder<T extends unknown[]>(
  signal: AbortSignal,
  reads: { [K in keyof T]: (signal: AbortSignal) => Promise<T[K]> },
): Promise<T> {
  const list = reads as unknown as ((signal: AbortSignal) => Promise<unknown>)[];
  const stops = list.map(() => new AbortController());
  const settled = await Promise.allSettled(
    list.map(async (read, i) => {
      try {
        return await read(AbortSignal.any([signal, stops[i]!.signal]));
      } catch (error) {
        for (const later of stops.slice(i + 1)) later.abort();
        throw error;
      }
    }),
  );
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as T;
}
