// Each CI system's conventions as lines to print: collapsible sections per step, error and
// warning annotations, outputs as variables, the summary, the final status. Every piece of text
// in them is untrusted and neutralised first; only the command syntax itself is ours.
import type { CiName } from './detect.ts';
import { neutralise } from '../text/neutralise.ts';
import type { CiVariable } from './variables.ts';
import type { Where } from '../log/sink.ts';

export interface CiAdapter {
  name: CiName;
  sectionStart(key: string, title: string, nowMs: number): string | undefined;
  sectionEnd(key: string, nowMs: number): string | undefined;
  issue(kind: 'error' | 'warning', message: string, where?: Where): string | undefined;
  variable(v: CiVariable): string | undefined;
  /**
   * Lines after the run: the summary upload, the task result. `withIssues`: it succeeded, but a
   * step failed and continue-on-error let it pass.
   */
  finish(outcome: 'success' | 'failure' | 'cancelled', summaryFile: string | undefined, withIssues?: boolean): string[];
  /** Registers a secret with the CI's own log masking, when it has one. */
  mask(secret: string): string | undefined;
}

const sectionName = (key: string) => key.toLowerCase().replace(/[^a-z0-9_.-]/g, '_').slice(0, 64);

/** GitHub: workflow commands (for the CLI on a GitHub runner; the action uses @actions/core). */
const github: CiAdapter = {
  name: 'github',
  sectionStart: (_k, title) => `::group::${esc(neutralise(title))}`,
  sectionEnd: () => '::endgroup::',
  issue: (kind, message, where) => {
    const props = [where?.file && `file=${prop(where.file)}`, where?.line && `line=${where.line}`, where?.col && `col=${where.col}`].filter(Boolean).join(',');
    return `::${kind}${props ? ` ${props}` : ''}::${esc(neutralise(message))}`;
  },
  variable: () => undefined,
  finish: () => [],
  mask: (secret) => `::add-mask::${esc(secret)}`,
};

/** GitLab: collapsed sections (ANSI-framed markers); annotations are lines; JUnit, dotenv, summary as artifacts. */
const gitlab: CiAdapter = {
  name: 'gitlab',
  sectionStart: (key, title, now) => `\x1b[0Ksection_start:${Math.floor(now / 1000)}:${sectionName(key)}[collapsed=true]\r\x1b[0K${neutralise(title)}`,
  sectionEnd: (key, now) => `\x1b[0Ksection_end:${Math.floor(now / 1000)}:${sectionName(key)}\r\x1b[0K`,
  issue: () => undefined,
  variable: () => undefined,
  finish: () => [],
  mask: () => undefined,
};

const azureEscape = (s: string) => s.replace(/%/g, '%AZP25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const azureProp = (s: string) => azureEscape(s).replace(/;/g, '%3B').replace(/]/g, '%5D');

/** Azure Pipelines: logging commands. */
const azure: CiAdapter = {
  name: 'azure',
  sectionStart: (_k, title) => `##[group]${neutralise(title).replace(/[\r\n]/g, ' ')}`,
  sectionEnd: () => '##[endgroup]',
  issue: (kind, message, where) => {
    const props = [`type=${kind}`, where?.file && `sourcepath=${azureProp(where.file)}`, where?.line && `linenumber=${where.line}`, where?.col && `columnnumber=${where.col}`].filter(Boolean).join(';');
    return `##vso[task.logissue ${props};]${azureEscape(neutralise(message))}`;
  },
  variable: (v) => `##vso[task.setvariable variable=${v.name};isoutput=true${v.secret ? ';issecret=true' : ''}]${azureEscape(neutralise(v.value))}`,
  finish: (outcome, summaryFile, withIssues) => [
    ...(summaryFile ? [`##vso[task.uploadsummary]${azureEscape(summaryFile)}`] : []),
    `##vso[task.complete result=${outcome !== 'success' ? 'Failed' : withIssues ? 'SucceededWithIssues' : 'Succeeded'};]enginectl: ${outcome}${outcome === 'success' && withIssues ? ' (a step failed; continue-on-error let it pass)' : ''}`,
  ],
  mask: (secret) => `##vso[task.setsecret]${azureEscape(secret)}`,
};

/** Jenkins: plain framed sections; JUnit and exit codes do the rest. */
const jenkins: CiAdapter = {
  name: 'jenkins',
  sectionStart: (_k, title) => `---- ${neutralise(title)} ----`,
  sectionEnd: () => undefined,
  issue: () => undefined,
  variable: () => undefined,
  finish: () => [],
  mask: () => undefined,
};

const plain: CiAdapter = { ...jenkins, name: 'plain', sectionStart: () => undefined };

function esc(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function prop(s: string): string {
  return esc(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export const ADAPTERS: Record<CiName, CiAdapter> = { github, gitlab, azure, jenkins, plain };
