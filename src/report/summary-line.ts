// The run's last line in the terminal and the CI log, from the report every channel reads.
import { formatDuration } from '../duration.ts';
import { describeSelection } from '../pipeline/selection.ts';
import { countsPhrase } from '../runner/result.ts';
import { neutraliseLines } from '../text/neutralise.ts';
import { outcomeWord, type Report } from './model.ts';

/**
 * The run's last line: its outcome as every report heads it (parked for a run that parked, never
 * success; in doubt for a success that left a write in doubt), duration and the count of step runs
 * by outcome (what ran), and what a parked run waits for. A line break in the text from outside it
 * (the name, a matrix value, what it waits for) starts no line of its own: its further lines are indented.
 */
export function summaryLine(report: Report): string {
  const { counts } = report;
  const limited = report.selection && describeSelection(report.selection);
  return `pipeline "${neutraliseLines(report.pipeline.name)}": ${outcomeWord(report)} in ${formatDuration(report.durationMs)} (${counts.total} step run(s): ${countsPhrase(counts)})${limited ? `; limited to: ${neutraliseLines(limited)}` : ''}${report.parked ? `; waiting for ${neutraliseLines(report.parked.reason)}` : ''}`;
}
