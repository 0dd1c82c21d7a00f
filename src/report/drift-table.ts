// The drift audit as the terminal shows it and as Markdown (job summary, an issue's body): a row
// per site, what drifted and what was found, or that it could not be read.
import type { AuditCheck, DriftAudit, SiteAudit } from './drift-audit.ts';
import { cell, codeSpan, noMentions } from '../text/escape.ts';
import { indentLines } from '../text/neutralise.ts';

const held = (checks: AuditCheck[]) =>
  `${checks.filter((c) => c.state === 'holds').length}/${checks.filter((c) => c.state === 'holds' || c.state === 'drift').length} hold`;

/** What is said of a check: what drifted, or why the site could not be read. */
const told = (c: AuditCheck) => c.state === 'drift' || c.state === 'unreachable';

function headline(audit: DriftAudit): string {
  const { drifted, unreachable, sites } = audit;
  const down = (lead: string) =>
    `${lead}${unreachable.length} of ${sites.length} site(s) could not be read: ${unreachable.join(', ')}`;
  if (drifted.length > 0)
    return `DRIFT at ${drifted.length} of ${sites.length} site(s): ${drifted.join(', ')}${unreachable.length ? `; ${unreachable.length} could not be read: ${unreachable.join(', ')}` : ''}`;
  if (unreachable.length > 0) return down('UNREACHABLE: ');
  return `no drift: every check holds at ${sites.length} site(s)`;
}

const verdict = (site: SiteAudit) => (site.drifted ? 'drift' : site.unreachable ? 'unreachable' : 'ok');

/** The audit as the terminal shows it, neutralised where it is printed: a line break in a name, a check or what was found starts no line of its own (indented under its own). */
export function driftText(audit: DriftAudit): string {
  const lines = [`drift audit of "${indentLines(audit.name)}" at ${audit.at}: ${indentLines(headline(audit))}`];
  const width = Math.max(...audit.sites.map((s) => s.site.length), 4);
  const words = Math.max(...audit.sites.map((s) => verdict(s).length), 5);
  for (const site of audit.sites) {
    lines.push(
      `  ${indentLines(site.site.padEnd(width))}  ${(verdict(site) === 'ok' ? 'ok' : verdict(site).toUpperCase()).padEnd(words)}  ${held(site.checks)}`,
    );
    const under = ' '.repeat(width + 8);
    for (const c of site.checks)
      if (told(c)) lines.push(`  ${''.padEnd(width)}    ${indentLines(`${c.check}: ${c.found}`, under)}`);
  }
  return lines.join('\n');
}

export function driftMarkdown(audit: DriftAudit): string {
  const icon = audit.drifted.length ? '🟥' : audit.unreachable.length ? '🟧' : '🟩';
  const out = [`## ${icon} ${cell(audit.name)}: ${cell(headline(audit))}`, ''];
  out.push(`${codeSpan(audit.file)} · read at ${audit.at} with GET requests only`, '');
  out.push('| site | result | checks | what drifted or could not be read |', '|---|---|---|---|');
  for (const site of audit.sites) {
    const drift = site.checks
      .filter(told)
      .map((c) => `${cell(c.check)}: ${cell(c.found)}`)
      .join('<br>');
    out.push(
      `| ${cell(site.site)} | ${verdict(site) === 'ok' ? 'ok' : `**${verdict(site)}**`} | ${held(site.checks)} | ${drift} |`,
    );
  }
  return noMentions(`${out.join('\n')}\n`);
}
