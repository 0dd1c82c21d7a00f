// A CI system's channels, chosen once per command (ci/detect.ts): step outputs as its variables
// (Azure's setvariable), and the job summary where it shows one with the lines that end the job
// (GitHub's GITHUB_STEP_SUMMARY, Azure's uploadsummary and task result).
import type { CiSystem, Env } from '../../ci/system.ts';
import { ciVariablesOf } from '../../ci/variables.ts';
import { publishJobSummary } from '../job-summary.ts';
import type { Channel } from './channel.ts';

/** Each step output a CI variable can carry, as the system's variable line (none for most systems). */
export function ciVariablesChannel(ci: CiSystem, print: (line: string) => void, warn: (m: string) => void): Channel {
  return {
    name: `${ci.name} variables`,
    ended(end) {
      if (!end.report) return;
      // CI variables carry key figures: a Markdown report or a long text stays in the JSON report.
      const { variables, clashes } = ciVariablesOf(end.report);
      for (const v of variables.filter((x) => x.value.length <= 1024 && !/[\r\n]/.test(x.value))) {
        const line = ci.variable(v);
        if (line) print(line);
      }
      // Where the system carries variables, a name two outputs share is said (its line written for neither).
      if (ci.variable({ name: 'ANY', value: '', secret: false }) === undefined) return;
      for (const { name, why } of clashes) warn(`${ci.name} variables: ${name} left out (${why})`);
    },
  };
}

/**
 * The Markdown summary where the system shows it, then the lines that end its job. `summaryFile`:
 * the summary file asked for (Azure uploads it rather than a file of its own); `fullReport` names
 * where the full reports are, for the note when parts are cut.
 */
export function ciSummaryChannel(
  ci: CiSystem,
  env: Env,
  print: (line: string) => void,
  options: { summaryFile?: string | undefined; fullReport?: string | undefined } = {},
): Channel {
  return {
    name: `${ci.name} job summary`,
    async ended(end) {
      const done = await publishJobSummary(
        ci,
        env,
        (limit) => end.markdown({ fullReport: options.fullReport, limit }),
        {
          outcome: end.outcome,
          parked: end.parked,
          inDoubt: end.inDoubt,
          withIssues: end.withIssues === true,
        },
        { summaryFile: options.summaryFile },
      );
      if (done.said) print(done.said);
      if (done.warning) print(ci.issue('warning', done.warning) ?? `warning: ${done.warning}`);
      for (const line of done.finish) print(line);
      return done.problem ? { failed: [done.problem] } : undefined;
    },
  };
}
