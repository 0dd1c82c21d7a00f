// What a worker parked at its wave's barrier says it waits for, written in one place and read
// back in one: the worker's words, and report --merge F... --expect-shards N dropping from them
// the sites another worker's report shows ended (that worker read the store after this one parked).

/** The wait for the sites of a wave not ended (the first five named), or, all ended, for its verdict; `after` is the wait in words. */
export function barrierReason(
  wave: number,
  over: string,
  open: readonly string[],
  after: string,
  count = open.length,
): string {
  if (count === 0) return `the verdict of wave ${wave} after ${after}`;
  const shown = open.slice(0, 5);
  const list = [...shown, ...(count > shown.length ? ['...'] : [])].join(', ');
  return `wave ${wave}'s ${count} ${over}(s) not ended (${list}) after ${after}`;
}

const NOT_ENDED = /^wave (\d+)'s (\d+) (.+)\(s\) not ended \((.*)\) after (.+)$/;

/**
 * The reason without the sites in `ended`; the count less those of them it named (a site past the
 * first five it did not name stays counted: which ones they are is not in the reason). A reason of
 * other words, or one that names a site in `ended` no more, is given back as it was.
 */
export function barrierReasonWithout(reason: string, ended: ReadonlySet<string>): string {
  const m = NOT_ENDED.exec(reason);
  if (!m) return reason;
  const [, wave, count, over, list, after] = m as unknown as [string, string, string, string, string, string];
  const more = list.endsWith(', ...');
  const named = (more ? list.slice(0, -', ...'.length) : list).split(', ');
  const open = named.filter((site) => !ended.has(site));
  if (open.length === named.length) return reason;
  const left = Number(count) - (named.length - open.length);
  // The sites it did not name may be among those still open: only the count says so.
  return barrierReason(Number(wave), over, open, after, more ? Math.max(left, open.length) : open.length);
}
