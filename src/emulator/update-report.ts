// The Markdown `report` of an update result, as the server writes it (enterprise-api.md 2.14).

export interface ReportRow {
  cells: (string | number)[];
}

function table(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.map((c) => String(c).replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export interface ReportInput {
  kind: 'System' | 'VFS';
  database: string;
  server: string;
  success: boolean;
  trackingId?: string | undefined;
  messageComplement?: string | undefined;
  sections: { title: string; header?: string[]; rows?: (string | number)[][]; lines?: string[] }[];
}

export function renderUpdateReport(input: ReportInput): string {
  const out = [`# ${input.kind} update of ${input.database} on ${input.server}`, ''];
  out.push(`**Result:** ${input.success ? 'succeeded' : 'failed'}`, '');
  if (input.trackingId) out.push(`**Tracking id:** ${input.trackingId}`, '');
  if (input.messageComplement) out.push(`> ${input.messageComplement}`, '');
  for (const section of input.sections) {
    out.push(`## ${section.title}`, '');
    if (section.header && section.rows)
      out.push(section.rows.length > 0 ? table(section.header, section.rows) : '_none_', '');
    for (const line of section.lines ?? []) out.push(line);
    if (section.lines?.length) out.push('');
  }
  return out.join('\n').trimEnd() + '\n';
}
