// The run log on the GitHub Actions runner, through @actions/core (the Toolkit): a group per
// section, annotations with a title ("Sync the replicas failed") at the step's line.
import type { LogSink } from '../log/sink.ts';
import type { Toolkit } from './toolkit.ts';

export function actionsSink(kit: Toolkit): LogSink {
  return {
    line: (text) => kit.info(text),
    sectionStart: (_key, title) => (kit.startGroup(title), true),
    sectionEnd: () => kit.endGroup(),
    annotate: (a) => {
      const title = a.failed
        ? `${a.step} failed${a.failed.continued ? ' (continue-on-error: the pipeline went on)' : ''}`
        : (a.step ?? 'enginectl');
      const at = a.where?.file
        ? { file: a.where.file, startLine: a.where.line, ...(a.where.col ? { startColumn: a.where.col } : {}) }
        : {};
      kit[a.kind](a.message, { title, ...at });
      return true;
    },
  };
}
