// The run log in another CI system's syntax (and the CLI's on a GitHub runner): sections from
// the adapter, annotations as its issue lines naming the step ("Sync the replicas: ...").
import type { LogSink } from '../log/sink.ts';
import type { CiSystem } from './system.ts';

export function ciSink(ci: CiSystem, write: (text: string) => void, now: () => number): LogSink {
  const emit = (line: string | undefined) => (line === undefined ? false : (write(`${line}\n`), true));
  return {
    line: (text) => write(`${text}\n`),
    sectionStart: (key, title) => emit(ci.sectionStart(key, title, now())),
    sectionEnd: (key) => void emit(ci.sectionEnd(key, now())),
    annotate: (a) => emit(ci.issue(a.kind, a.step ? `${a.step}: ${a.message}` : a.message, a.where)),
  };
}
