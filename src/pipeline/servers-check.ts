// Which server each step calls (its own `server:`, defaults.server, or the only one there is),
// checked at load: an unknown name, a matrix value naming no server, no server at all.
import { defaultServerOf, type DefaultServer } from '../api/server-env.ts';
import { didYouMean, type Diagnostic } from './diagnostics.ts';
import { at } from './located.ts';
import type { PipelineFile } from './schema.ts';
import type { YamlSource } from './yaml-doc.ts';
import { STEP_TYPES } from '../steps/registry.ts';
import { CLI_WAYS, type WaysOn } from '../ways-on.ts';

export const DEFAULT_SERVER = 'default';

type RawStep = PipelineFile['steps'][number];

export interface ServerChoiceOptions {
  env: Readonly<Record<string, string | undefined>>;
  /** The default server the edge read (an action's inputs); from `env` when absent. */
  defaultServer?: DefaultServer | undefined;
  emulator?: boolean | undefined;
  checkEnv?: boolean | undefined;
  /** How the surface names where a server is given, in the hint of none (the CLI's by default). */
  ways?: WaysOn | undefined;
}

/** The server each step calls, and problems with the choice. */
export function serverChoice(source: YamlSource, data: PipelineFile, options: ServerChoiceOptions) {
  const declared = Object.keys(data.servers ?? {});
  const fromEnv = (options.defaultServer ?? defaultServerOf(options.env)).url;
  const names =
    declared.length > 0 ? declared : fromEnv || options.emulator || options.checkEnv === false ? [DEFAULT_SERVER] : [];
  const known = new Set(names);
  const problems: Diagnostic[] = [];
  const defaultName = data.defaults?.server;
  if (defaultName !== undefined && !known.has(defaultName)) {
    const guess = didYouMean(defaultName, names);
    problems.push(
      at(
        source,
        ['defaults', 'server'],
        `unknown server "${defaultName}"`,
        guess ? `did you mean "${guess}"?` : `servers: ${names.join(', ') || 'none'}`,
      ),
    );
  }
  // Decided once per step, however often asked: its problems are said once.
  const decided = new Map<number, string | undefined>();
  const serverOf = (step: RawStep, index: number): string | undefined => {
    if (decided.has(index)) return decided.get(index);
    decided.set(index, decide(step, index));
    return decided.get(index);
  };
  const decide = (step: RawStep, index: number): string | undefined => {
    if (!STEP_TYPES.get(step.uses)?.needsServer) return undefined;
    const name = step.server ?? defaultName ?? (names.length === 1 ? names[0] : undefined);
    if (typeof step.server === 'string' && step.server.includes('${{')) {
      // A server chosen by an expression (a matrix over sites): each matrix value must name one.
      const key = /^\s*\$\{\{\s*matrix\.([A-Za-z_][\w-]*)\s*\}\}\s*$/.exec(step.server)?.[1];
      const values = key !== undefined ? (step.matrix?.[key] ?? []) : [];
      values.forEach((value, i) => {
        if (known.has(String(value))) return;
        const guess = didYouMean(String(value), names);
        problems.push(
          at(
            source,
            ['steps', index, 'matrix', key!, i],
            `matrix value "${String(value)}" names no server (server: ${String(step.server).trim()})`,
            guess ? `did you mean "${guess}"?` : `servers: ${names.join(', ') || 'none'}`,
          ),
        );
      });
    } else if (step.server !== undefined && !known.has(step.server)) {
      const guess = didYouMean(step.server, names);
      problems.push(
        at(
          source,
          ['steps', index, 'server'],
          `unknown server "${step.server}"`,
          guess ? `did you mean "${guess}"?` : `servers: ${names.join(', ') || 'none'}`,
        ),
      );
    } else if (
      name === undefined &&
      !problems.some((p) => p.message === 'no server to call' || p.message.startsWith('which server?'))
    ) {
      problems.push(
        at(
          source,
          ['steps', index, 'uses'],
          names.length === 0 ? 'no server to call' : `which server? there are ${names.length}: ${names.join(', ')}`,
          names.length === 0 ? (options.ways ?? CLI_WAYS).noServer : 'set server: on the step or defaults.server',
        ),
      );
    }
    return name;
  };
  return { names, serverOf, problems };
}
