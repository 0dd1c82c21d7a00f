// The normalised pipeline the runner executes. Strings may still hold ${{ }} expressions; they
// are resolved at run time, when steps' outputs exist.
import type { TargetDef } from '../steps/types.ts';
import type { Position } from './yaml-doc.ts';

export interface ServerDef {
  name: string;
  url: string;
  username?: string | undefined;
  password?: string | undefined;
  timeoutMs?: number | undefined;
  caFile?: string | undefined;
  insecureSkipTlsVerify?: boolean | string | undefined;
  allowInsecureHttp?: boolean | string | undefined;
}

export interface RetryPolicy {
  attempts: number;
  delayMs: number;
  backoff: number;
}

export interface Step {
  /** Index in the file's steps, from 0. */
  index: number;
  id: string | undefined;
  name: string;
  uses: string;
  with: Record<string, unknown>;
  /** The condition as an expression (no ${{ }}): success() unless the file says otherwise. */
  if: string;
  continueOnError: boolean;
  timeoutMs: number | undefined;
  retry: RetryPolicy | undefined;
  matrix: Record<string, (string | number | boolean)[]> | undefined;
  maxParallel: number;
  failFast: boolean;
  /** Name of the server it calls; undefined for steps that call none. */
  server: string | undefined;
  position: Position;
}

export interface Pipeline {
  file: string;
  name: string;
  vars: Record<string, unknown>;
  servers: Record<string, ServerDef>;
  targets: Record<string, TargetDef>;
  steps: Step[];
}
