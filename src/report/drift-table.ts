// The drift audit as the terminal shows it and as Markdown (job summary, an issue's body): a row
// per site, what drifted and what was found.
import type { AuditCheck, DriftAudit } from './drift-audit.ts';
import { cell, noMentions } from '../text/escape.ts';

const held = (checks: AuditCheck[]) => `${checks.filter((c) => c.state === 'holds').length}/${checks.filter((c) => c.state !== 'not-checked').length} hold`;

function headline(audit: DriftAudit): string {
  return audit.drifted.length === 0
    ? `no drift: every check holds at ${audit.sites.length} site(s)`
    : `DRIFT at ${audit.drifted.length} of ${audit.sites.length} site(s): ${audit.drifted.join(', ')}`;
}

export function driftText(audit: DriftAudit): string {
  const lines = [`drift audit of "${audit.name}" at ${audit.at}: ${headline(audit)}`];
  const width = Math.max(...audit.sites.map((s) => s.site.length), 4);
  for (const site of audit.sites) {
    lines.push(`  ${site.site.padEnd(width)}  ${site.drifted ? 'DRIFT' : 'ok   '}  ${held(site.checks)}`);
    for (const c of site.checks) if (c.state === 'drift') lines.push(`  ${''.padEnd(width)}    ${c.check}: ${c.found}`);
  }
  return lines.join('\n');
}

export function driftMarkdown(audit: DriftAudit): string {
  const out = [`## ${audit.drifted.length ? '🟥' : '🟩'} ${cell(audit.name)}: ${cell(headline(audit))}`, ''];
  out.push(`\`${cell(audit.file)}\` · read at ${audit.at} with GET requests only`, '');
  out.push('| site | result | checks | what drifted |', '|---|---|---|---|');
  for (const site of audit.sites) {
    const drift = site.checks.filter((c) => c.state === 'drift').map((c) => `${cell(c.check)}: ${cell(c.found)}`).join('<br>');
    out.push(`| ${cell(site.site)} | ${site.drifted ? '**drift**' : 'ok'} | ${held(site.checks)} | ${drift} |`);
  }
  return noMentions(`${out.join('\n')}\n`);
}
