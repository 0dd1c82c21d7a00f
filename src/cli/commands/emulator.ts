// `enginectl emulator`: serves the embedded emulator until stopped. Its first stdout line is
// `listening on http://127.0.0.1:PORT`.
import { DEFAULT_SITE, serve } from '../../emulator/index.ts';
import { EMULATOR_OPTIONS, EMULATOR_OPTIONS_HELP, sitesFromOptions } from '../emulator-options.ts';
import { ExitCode, UsageError } from '../../errors.ts';
import { parseCommandArgs } from '../args.ts';
import type { CliIO } from '../io.ts';

export const EMULATOR_HELP = `Usage: enginectl emulator [options]

Serves the embedded emulator of the enterprise API (every endpoint, stateful) until stopped
with Ctrl-C or SIGTERM. The first line on stdout is "listening on http://HOST:PORT".
Users: admin/admin (every scope), monitor/monitor (api.monitoring). Each site has a state of its
own at http://HOST:PORT/sites/NAME (the root is the site "default"). docs/emulator.md
describes the sample state, the fault settings and the /_emulator/ control routes.

Options:
  --port N                     port to listen on; 0 (the default) picks a free one
  --host HOST                  address to listen on (default 127.0.0.1)
${EMULATOR_OPTIONS_HELP}
  --log                        print one line per request on stderr
  -h, --help                   show this help`;

/**
 * What `enginectl emulator` accepts (and -h, --help), as its parser reads it: the table of
 * commands in docs/pipeline-format.md is tested against it (test/cli/command-table.test.ts).
 */
export const OPTIONS = {
  port: { type: 'string', default: '0' },
  host: { type: 'string', default: '127.0.0.1' },
  ...EMULATOR_OPTIONS,
  log: { type: 'boolean' },
} as const;

export async function emulatorCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('emulator', args, OPTIONS);
  if (values.help) {
    io.stdout(`${EMULATOR_HELP}\n`);
    return ExitCode.ok;
  }
  if (positionals.length > 0)
    throw new UsageError('BAD_ARGUMENTS', `emulator: unexpected argument ${positionals[0]}`, {
      hint: 'see enginectl emulator --help',
    });
  if (!/^\d+$/.test(values.port) || Number(values.port) > 65535) {
    throw new UsageError('BAD_ARGUMENTS', `--port ${values.port}: not a port number`, {
      hint: 'use 0 to pick a free port',
    });
  }
  const sites = await sitesFromOptions(values, undefined, (name, site) => {
    if (!values.log) return;
    const push = site.requests.push.bind(site.requests);
    const where = name === DEFAULT_SITE ? '' : `/sites/${name}`;
    site.requests.push = (...records) => {
      for (const r of records)
        queueMicrotask(() => io.stderr(`${r.method} ${where}${r.path}${r.fault ? ` [fault: ${r.fault}]` : ''}\n`));
      return push(...records);
    };
  });
  let running;
  try {
    running = await serve(sites, { port: Number(values.port), host: values.host });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      'EMULATOR_LISTEN',
      `emulator: cannot listen on ${values.host}:${values.port} (${code ?? (error as Error).message})`,
      {
        hint: code === 'EADDRINUSE' ? 'the port is taken; choose another or --port 0' : 'check --host and --port',
      },
    );
  }
  // Its users' passwords are the documented ones, and its control routes take no login: fine on loopback only.
  if (!/^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/i.test(values.host))
    io.stderr(
      `enginectl: warning: the emulator listens on ${values.host}: whoever reaches it there can call it as admin/admin and change its state and faults through /_emulator/ (no login)\n  hint: drop --host (127.0.0.1) unless another machine must reach it, and then only on a network you trust\n`,
    );
  io.stdout(`listening on ${running.url}\n`);
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await running.close();
  return ExitCode.ok;
}
