// A continue (input continue) of a run whose decision is not made yet, as the scheduled job of the
// docs meets it until someone decides: parked again, nothing run or sent, a neutral outcome. Every
// documented output is set (no report: none was written), and the log and the job summary say
// what it waits for and how to go on: decide first, then run again with input continue.
import type { DecidedMeanwhile } from '../app/decided-meanwhile.ts';
import type { JournalSetup } from '../app/journal-setup.ts';
import { pendingDecisions, waitLines } from '../app/parked.ts';
import type { RunHold } from '../app/run-own-lease.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { cutMarkdown } from '../report/markdown-cut.ts';
import { SUMMARY_BUDGET } from '../report/markdown.ts';
import type { Masker } from '../runner/masker.ts';
import { indentLines } from '../text/neutralise.ts';
import { cell } from '../text/escape.ts';
import { booleanInput } from './inputs.ts';
import type { Toolkit } from './toolkit.ts';

/** Whether the run is still parked (said, outputs set, its journal and leases let go); false when it goes on. */
export async function stillParked(
  kit: Toolkit,
  journal: JournalSetup,
  taken: RunHold | undefined,
  pipeline: Pipeline,
  masker: Masker,
  run: { id: string; label: string },
): Promise<boolean> {
  const runId = run.id;
  const pending = journal.parked ? pendingDecisions(journal.parked) : [];
  if (pending.length === 0) return false;
  const lines = waitLines(pending).map((l) => indentLines(masker.mask(l)));
  const decide = `enginectl decide --store URL --run ${runId}`;
  const coming = (journal.timeouts ?? []).map((t) => indentLines(masker.mask(`decided with a timeout: ${t}`)));
  for (const line of lines) kit.info(`still parked: ${line}`);
  for (const line of coming) kit.info(line);
  kit.info(`decide first: ${decide}; then run again with input continue: ${runId}`);
  journal.spec.file.close();
  await taken?.end({ keep: pipeline.keepLeaseParked === true });
  await endParked(kit, journal.spec.file.path, run.label, [
    `Run \`${runId}\`: nothing was run or sent.`,
    '',
    ...lines.map((l) => `- ${cell(l)}`),
    ...coming.map((l) => `- ${cell(l)}`),
    '',
    `Decide first: \`${decide}\` lists each wait with its evidence; then run again with input \`continue: ${runId}\`.`,
  ]);
  return true;
}

/**
 * A continue refused because an operator's decision was recorded after it read the run (decided-meanwhile.ts),
 * which leaves the run parked with that decision in force: parked, nothing sent, a neutral outcome; the next
 * job's continue goes on as it says. Its journal and leases were let go by the fence (a kept fleet lease kept).
 */
export async function parkedByDecisionMeanwhile(
  kit: Toolkit,
  error: DecidedMeanwhile,
  journal: JournalSetup,
  masker: Masker,
  run: { id: string; label: string },
): Promise<void> {
  const said = indentLines(masker.mask(error.message));
  kit.info(`still parked: ${said}`);
  kit.info(`run again with input continue: ${run.id}: it goes on as that decision says`);
  await endParked(kit, journal.spec.file.path, run.label, [
    `Run \`${run.id}\`: ${cell(said)}.`,
    '',
    `Run again with input \`continue: ${run.id}\`: it goes on as that decision says (\`enginectl decide --store URL --run ${run.id}\` lists what is decided).`,
  ]);
}

/** Every documented output of a run still parked (no report: none was written), and its job summary. */
async function endParked(kit: Toolkit, journal: string, label: string, body: readonly string[]): Promise<void> {
  kit.setOutput('outcome', 'parked');
  kit.setOutput('report', '');
  kit.setOutput('outputs', '{}');
  kit.setOutput('journal', journal);
  if (booleanInput(kit.getInput, 'summary')) {
    const markdown = [`## ⏸️ ${cell(label)}: still parked`, '', ...body, ''].join('\n');
    await kit
      .appendSummary(cutMarkdown(markdown, SUMMARY_BUDGET, (kib) => `The summary was cut at ${kib} KiB.`))
      .catch((error: unknown) =>
        kit.warning(`job summary: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {
          title: 'enginectl',
        }),
      );
  }
}
