// What the action needs from the Actions runner: the @actions/core calls, passed in so the core
// of the action is tested with a recording fake and run for real with @actions/core. runAction
// wraps the one it is given in inertKit (inert-kit.ts): whatever the action prints is neutralised.

export interface AnnotationProps {
  title?: string;
  file?: string;
  startLine?: number;
  startColumn?: number;
}

export interface Toolkit {
  getInput(name: string): string;
  setSecret(secret: string): void;
  setOutput(name: string, value: string): void;
  info(line: string): void;
  startGroup(title: string): void;
  endGroup(): void;
  error(message: string, props?: AnnotationProps): void;
  warning(message: string, props?: AnnotationProps): void;
  setFailed(message: string): void;
  /** Appends Markdown to the job summary. */
  appendSummary(markdown: string): Promise<void>;
}
