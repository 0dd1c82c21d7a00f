// Where the run's log goes: a terminal, another CI system's log, or the GitHub Actions runner.
// The run log (run-log.ts) decides what is said; a sink only frames it in its system's syntax.
// Every text handed to a sink is already neutralised.

/** A place in the pipeline file, for annotations. */
export interface Where {
  file?: string | undefined;
  line?: number | undefined;
  col?: number | undefined;
}

export interface Annotation {
  kind: 'error' | 'warning';
  /** The step it concerns, by name; none for the run as a whole. */
  step?: string | undefined;
  /** A step failed (`continued`: continue-on-error let the pipeline go on). */
  failed?: { continued: boolean } | undefined;
  message: string;
  where?: Where | undefined;
}

export interface LogSink {
  /** A line of the log (no line break at its end). */
  line(text: string): void;
  /** Opens a collapsible section; false when this system has none. */
  sectionStart(key: string, title: string): boolean;
  sectionEnd(key: string): void;
  /** An annotation; true when it is a line of the log itself (the run log then prints no other). */
  annotate(annotation: Annotation): boolean;
}

/** A terminal: lines only. */
export function terminalSink(write: (text: string) => void): LogSink {
  return {
    line: (text) => write(`${text}\n`),
    sectionStart: () => false,
    sectionEnd: () => undefined,
    annotate: () => false,
  };
}
