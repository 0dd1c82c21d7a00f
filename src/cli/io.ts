// What a command gets from the world. The edge (main.ts) passes the real process; tests pass
// recording fakes and run the same code.

export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether stdout is a terminal (colour, spinner). */
  stdoutIsTTY: boolean;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Aborted when the process is asked to stop (SIGINT, SIGTERM). */
  signal: AbortSignal;
  readFile(path: string): Promise<string>;
  readStdin(): Promise<string>;
}
