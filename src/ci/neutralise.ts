// Untrusted text (server reports, error bodies, names from files) made inert for every CI log
// parser at once, so a server cannot inject commands whichever CI prints it: GitHub workflow
// commands (`::error::`), Azure logging commands (`##vso[`, `##[group]`), GitLab section markers
// and any terminal escape sequence (ESC, CR) are broken with a zero-width space or made visible.

const ZWSP = '\u200B';

export function neutralise(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B-\u001F\u007F\u009B]/g, (c) => (c === '\x1b' ? '␛' : c === '\r' ? '␍' : '�'))
      .replace(/::/g, `:${ZWSP}:`)
      .replace(/##(\s*)(vso|\[)/gi, `#${ZWSP}#$1$2`)
      .replace(/section_(start|end):/g, `section_${ZWSP}$1:`)
  );
}
