// A server's own Markdown report inside the summary: still Markdown, but inert (no raw HTML, no
// images, safe links only), its headings below the summary's, a fence it leaves open closed.
import { neutralise } from '../text/neutralise.ts';
import { noMentions } from '../text/escape.ts';

/** Links the summary keeps: http(s), mailto and in-page; anything else (javascript:) goes. */
const UNSAFE_INLINE_LINK = /\]\(\s*<?(?!https?:|mailto:|#)[^)\s>]*>?/gi;
const UNSAFE_LINK_DEFINITION = /^(\s{0,3}\[[^\]\n]+\]:\s*)(?!https?:|mailto:|#)\S+/gim;

/**
 * Server text inside the summary, still Markdown (headings, lists, tables render) but inert: raw
 * HTML is shown as text, so it cannot close <details>; images are not loaded; links to anything
 * but http(s), mailto and anchors are cut; control characters are made visible and CI commands
 * broken, so the file stays inert wherever it is printed.
 */
function serverMarkdown(text: string): string {
  return noMentions(neutralise(text.replace(/\r\n/g, '\n')))
    .replace(/</g, '&lt;')
    .replace(/!\[/g, '!\\[')
    .replace(UNSAFE_INLINE_LINK, '](#unsafe-link-removed')
    .replace(UNSAFE_LINK_DEFINITION, '$1#unsafe-link-removed');
}

/**
 * A server's report held inside its section: its headings demoted below the summary's, and a code
 * fence it leaves open closed, so nothing after it (the next step's report, the errors) is
 * swallowed into it.
 */
function contained(markdown: string): string {
  let fence: string | undefined;
  const lines = markdown.split('\n').map((line) => {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (f && (fence === undefined || f.startsWith(fence))) fence = fence === undefined ? f : undefined;
    if (fence !== undefined || f) return line;
    return line.replace(
      /^(\s{0,3})(#{1,6})(?=\s|$)/,
      (_, indent: string, hashes: string) => `${indent}${'#'.repeat(Math.min(6, hashes.length + 3))}`,
    );
  });
  if (fence !== undefined) lines.push(fence);
  return lines.join('\n');
}

/** A server's report as the summary holds it. */
export function serverReportMarkdown(text: string): string {
  return contained(serverMarkdown(text));
}
