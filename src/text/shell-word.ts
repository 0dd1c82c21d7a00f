// A word of a command line a person pastes into a POSIX shell (a worker's fan-out, a hint's
// command): as it is when plain, else single-quoted, so the shell reads it back whole (a site named
// with a space, a quote, a $).

/** `word` as one shell word. */
export const shellWord = (word: string): string =>
  /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
