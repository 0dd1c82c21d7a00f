// Escaping for the renderings.

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Text in a Markdown table cell: no pipes, no line breaks, no HTML. */
export function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|').replace(/</g, '&lt;');
}

export const ICONS: Record<string, string> = { success: '✅', failure: '❌', skipped: '⏭️', cancelled: '⏹️' };
