// Azure Pipelines: logging commands; the summary is a Markdown file it is told to upload.
import { neutralise } from '../../text/neutralise.ts';
import { visibleControls } from '../../text/escape.ts';
import type { CiEnd, CiSystem } from '../system.ts';

const esc = (s: string) => s.replace(/%/g, '%AZP25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const prop = (s: string) => esc(s).replace(/;/g, '%3B').replace(/]/g, '%5D');

/**
 * The task's result and its words, as the report heads the run: a park (exit 75) is neither green
 * nor red, "succeeded with issues" saying what it waits for; a write left in doubt (exit 1) fails.
 */
function completion(end: CiEnd): [string, string] {
  if (end.parked !== undefined) return ['SucceededWithIssues', `parked: waiting for ${end.parked}`];
  if (end.outcome !== 'success') return ['Failed', end.outcome];
  if (end.inDoubt) return ['Failed', 'in doubt (a write was sent and no one decided whether it was applied)'];
  if (end.withIssues) return ['SucceededWithIssues', 'success (a step failed; continue-on-error let it pass)'];
  return ['Succeeded', 'success'];
}

export const azure: CiSystem = {
  name: 'azure',
  detect: (env) => env.TF_BUILD?.toLowerCase() === 'true',
  actor: (env) => env.BUILD_REQUESTEDFOR,
  workspace: (env) => env.BUILD_SOURCESDIRECTORY,
  runUrl: () => undefined,
  sectionStart: (_k, title) => `##[group]${neutralise(title).replace(/[\r\n]/g, ' ')}`,
  sectionEnd: () => '##[endgroup]',
  issue: (kind, message, where) => {
    const props = [
      `type=${kind}`,
      where?.file && `sourcepath=${prop(where.file)}`,
      where?.line && `linenumber=${where.line}`,
      where?.col && `columnnumber=${where.col}`,
    ]
      .filter(Boolean)
      .join(';');
    return `##vso[task.logissue ${props};]${esc(neutralise(message))}`;
  },
  // The agent reads the first logging command of a line, this one from its start: the value after
  // the ] is data (a later job reads it), kept as it is but for its % and line breaks escaped as the
  // agent unescapes them, and terminal controls made visible; :: or ##[ in it command nothing.
  variable: (v) =>
    `##vso[task.setvariable variable=${v.name};isoutput=true${v.secret ? ';issecret=true' : ''}]${esc(visibleControls(v.value))}`,
  summary: (env, tempDir) => ({ uploadFrom: env.AGENT_TEMPDIRECTORY ?? tempDir }),
  finish: (end, summaryFile) => {
    const [result, words] = completion(end);
    return [
      ...(summaryFile ? [`##vso[task.uploadsummary]${esc(summaryFile)}`] : []),
      `##vso[task.complete result=${result};]${esc(neutralise(`enginectl: ${words}`))}`,
    ];
  },
  mask: (secret) => `##vso[task.setsecret]${esc(secret)}`,
};
