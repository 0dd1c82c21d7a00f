// A release build's failure: what went wrong (naming the file) and what to do. build.mjs prints
// it as one message, with no stack trace, and exits 1.
export class ReleaseError extends Error {
  constructor(message, hint) {
    super(message);
    this.hint = hint;
  }
}
