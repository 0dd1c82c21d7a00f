// Escaping for the renderings.

/** Control characters (ESC, NUL, CR...) made visible: a report never carries a terminal escape. */
export function visibleControls(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000B-\u001F\u007F\u009B]/g, (c) => (c === '\x1b' ? '␛' : c === '\r' ? '␍' : '�'));
}

export function escapeHtml(text: string): string {
  return visibleControls(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Text in a Markdown table cell or list item: no pipes, line breaks, HTML, links or controls. */
export function cell(text: string): string {
  return visibleControls(text.replace(/\r?\n|\r/g, ' ')).replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/[[\]]/g, '\\$&');
}

export const ICONS: Record<string, string> = { success: '✅', failure: '❌', skipped: '⏭️', cancelled: '⏹️', 'in doubt': '⚠️' };
