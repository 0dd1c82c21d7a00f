// Untrusted text (server reports, error bodies, names from files) made inert for every CI log
// parser at once, so a server cannot inject commands whichever CI prints it: GitHub workflow
// commands (`::error::`), Azure logging commands (`##vso[`, `##[group]`), GitLab section markers
// and any terminal escape sequence (ESC, CR) are broken with a zero-width space or made visible.

import { visibleControls } from './escape.ts';

const ZWSP = '\u200B';

export function neutralise(text: string): string {
  return visibleControls(text)
    .replace(/::/g, `:${ZWSP}:`)
    .replace(/##(\s*)(vso|\[)/gi, `#${ZWSP}#$1$2`)
    .replace(/section_(start|end):/g, `section_${ZWSP}$1:`);
}
