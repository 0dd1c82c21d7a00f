// The run's last line in the terminal and the CI log, from the report every channel reads.
import { formatDuration } from '../duration.ts';
import { describeSelection } from '../pipeline/selection.ts';
import { countsPhrase } from '../runner/result.ts';
import { neutralise } from '../text/neutralise.ts';
import { outcomeWord, type Report } from './model.ts';

/**
 * The run's last line: its outcome as every report heads it (parked for a run that parked, never
 * success; in doubt for a success that left a write in doubt), duration and the count of step runs
 * by outcome (what ran), and what a parked run waits for.
 */
export function summaryLine(report: Report): string {
  const { counts } = report;
  const limited = report.selection && describeSelection(report.selection);
  return `pipeline "${neutralise(report.pipeline.name)}": ${outcomeWord(report)} in ${formatDuration(report.durationMs)} (${counts.total} step run(s): ${countsPhrase(counts)})${limited ? `; limited to: ${neutralise(limited)}` : ''}${report.parked ? `; waiting for ${neutralise(report.parked.reason)}` : ''}`;
}
