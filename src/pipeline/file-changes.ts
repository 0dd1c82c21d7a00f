// What changed in a pipeline's files between two readings of it (a journal's run and its resume,
// a saved plan and its run), said the one way both say it: the pipeline file first (its name may
// differ: a copy), then each include by its path, changed, now included or no longer included.

/** A file as read: its path (an include's, from the pipeline's directory) and a hash of its text. */
export interface FileRead {
  path: string;
  hash: string;
}

/** Each difference, in words; none when the files are the same. `then` and `now` each list the pipeline file first. */
export function fileChanges(
  then: readonly FileRead[],
  now: readonly FileRead[],
  pipelineFile?: string,
  /** What the pipeline file is called (a single-step action's: its inputs). */
  called = 'the pipeline file',
): string[] {
  const [pipeline, ...includes] = now;
  const [pipelineThen, ...includesThen] = then;
  const out =
    pipeline?.hash === pipelineThen?.hash
      ? []
      : [`${called} changed${pipelineFile === undefined ? '' : ` (${pipelineFile})`}`];
  const before = new Map(includesThen.map((f) => [f.path, f.hash]));
  for (const f of includes)
    if (before.get(f.path) !== f.hash)
      out.push(before.has(f.path) ? `the included ${f.path} changed` : `${f.path} is now included`);
  for (const f of includesThen)
    if (!includes.some((g) => g.path === f.path)) out.push(`${f.path} is no longer included`);
  return out;
}
