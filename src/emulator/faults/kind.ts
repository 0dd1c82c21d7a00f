// What a fault kind is: its settings (each a keyword of the `--fault` text and a field of the rule's
// JSON, read from either, with one line for the help and the docs) and the hooks by which the
// server applies it at each stage of answering a request. Kinds without hooks only scope a rule.
import type { ServerResponse } from 'node:http';
import type { EmuRequest, EmuResponse } from '../http.ts';
import type { EmulatorState } from '../state.ts';
import type { EngineView } from '../engine-view.ts';
import type { FaultRule, SettingField } from './rule.ts';

export interface FaultSetting<F extends SettingField = SettingField> {
  /** The keyword in `--fault` text: `chunk-delay`. */
  keyword: string;
  /** The field of the rule's JSON: `chunkDelayMs`. */
  field: F;
  /** How the help and the docs write it: `chunk-delay=100ms`. */
  usage: string;
  /** What it does, in one line (the docs' table). */
  effect: string;
  /** Its value from the text after `keyword=` (empty for a bare keyword); a UsageError when wrong. */
  fromText(value: string): NonNullable<FaultRule[F]>;
  /** Its value from a rule object posted to /_emulator/faults; a UsageError when wrong. */
  fromJson(value: unknown): NonNullable<FaultRule[F]>;
}

/** What a kind's `effect` may change: the state of the site, at a time on its clock, and when monitoring shows it. */
export interface SiteClock {
  now(): number;
  schedule(at: number, apply: () => void): void;
  readonly state: EmulatorState;
  readonly shown: EngineView;
}

type Rule = Readonly<FaultRule>;

/** A fault kind; the server calls each hook of the kinds whose settings a rule has, in kinds.ts's order. */
export interface FaultKind {
  name: string;
  settings: readonly FaultSetting[];
  /** Before the request is handled: true stops there (no answer is sent, or the client has gone). */
  before?(rule: Rule, res: ServerResponse): Promise<boolean>;
  /** An answer instead of handling the request (the state does not change); the first kind's wins. */
  instead?(rule: Rule): EmuResponse | undefined;
  /** What the client gets in place of the API's answer, once the API handled the request. */
  handled?(rule: Rule, answer: EmuResponse): EmuResponse;
  /** The answer, whichever it is, rewritten with the request it answers. */
  rewrite?(rule: Rule, answer: EmuResponse, req: EmuRequest): EmuResponse;
  /** After a 2xx answer: what changes at the site. */
  effect?(rule: Rule, site: SiteClock): void;
  /** Sends the answer its own way; true when it did (the first kind's wins). */
  send?(rule: Rule, res: ServerResponse, answer: EmuResponse): Promise<boolean>;
}
