// The reports merged are of one pipeline: the same files and --var values (their hash) and the
// same fleet (an inventory the environment chose makes another), unless forced.
import { UsageError } from '../errors.ts';
import type { Report } from './model.ts';

interface Source {
  source: string;
  report: Report;
}

export function checkSamePipeline(shards: readonly Source[], options: { force?: boolean | undefined }): void {
  if (options.force) return;
  const first = shards[0]!;
  for (const shard of shards.slice(1)) {
    if (shard.report.pipeline.sha256 !== first.report.pipeline.sha256) {
      throw new UsageError(
        'MERGE_MISMATCH',
        `report --merge: ${shard.source} is a report of another pipeline than ${first.source} (${shard.report.pipeline.file} ${short(shard.report.pipeline.sha256)}, not ${first.report.pipeline.file} ${short(first.report.pipeline.sha256)}: other files or other --var values)`,
        {
          hint: 'merge the reports of one release, run with the same files and --var values; --force merges them anyway',
        },
      );
    }
    // The same files may make another fleet (an inventory chosen by the environment).
    if (fleetOf(shard.report) !== fleetOf(first.report)) {
      throw new UsageError(
        'MERGE_MISMATCH',
        `report --merge: ${shard.source} is a report of another pipeline than ${first.source}: its fleet is ${fleetOf(shard.report) || 'no matrix'}, not ${fleetOf(first.report) || 'no matrix'}`,
        {
          hint: 'merge the reports of one release, run with the same files, --var values and inventory; --force merges them anyway',
        },
      );
    }
  }
}

/** A report's whole fleet in words: "site=test, staging, prod". */
const fleetOf = (report: Report) =>
  Object.entries(report.matrix)
    .map(([k, values]) => `${k}=${values.map(String).join(', ')}`)
    .join('; ');

const short = (sha: string | null) => (sha ? sha.slice(0, 'sha256:'.length + 12) : 'no hash');
