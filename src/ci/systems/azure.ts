// Azure Pipelines: logging commands; the summary is a Markdown file it is told to upload.
import { neutralise } from '../../text/neutralise.ts';
import { visibleControls } from '../../text/escape.ts';
import type { CiSystem } from '../system.ts';

const esc = (s: string) => s.replace(/%/g, '%AZP25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const prop = (s: string) => esc(s).replace(/;/g, '%3B').replace(/]/g, '%5D');

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
  finish: (outcome, summaryFile, withIssues) => [
    ...(summaryFile ? [`##vso[task.uploadsummary]${esc(summaryFile)}`] : []),
    `##vso[task.complete result=${outcome !== 'success' ? 'Failed' : withIssues ? 'SucceededWithIssues' : 'Succeeded'};]enginectl: ${outcome}${outcome === 'success' && withIssues ? ' (a step failed; continue-on-error let it pass)' : ''}`,
  ],
  mask: (secret) => `##vso[task.setsecret]${esc(secret)}`,
};
