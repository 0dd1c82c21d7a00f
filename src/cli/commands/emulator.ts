// `enginectl emulator`: serves the embedded emulator until stopped. Its first stdout line is
// `listening on http://127.0.0.1:PORT`.
import { Emulator, loadStateFile, parseFault, parseUserSpec, serve } from '../../emulator/index.ts';
import { ExitCode, UsageError } from '../../errors.ts';
import { parseCommandArgs } from '../args.ts';
import type { CliIO } from '../io.ts';

export const EMULATOR_HELP = `Usage: enginectl emulator [options]

Serves the embedded emulator of the enterprise API (every endpoint, stateful) until stopped
with Ctrl-C or SIGTERM. The first line on stdout is "listening on http://HOST:PORT".
Users: admin/admin (every scope), monitor/monitor (api.monitoring). docs/emulator.md
describes the sample state, the fault settings and the /_emulator/ control routes.

Options:
  --port N                     port to listen on; 0 (the default) picks a free one
  --host HOST                  address to listen on (default 127.0.0.1)
  --state FILE                 start from this state (JSON) instead of the sample state
  --user NAME:PASSWORD:SCOPES  add a user; SCOPES separated by commas, * for all (repeatable)
  --fault "[METHOD] PATH SETTINGS"
                               inject a fault, e.g. "POST /api/devops/v1/update/vfs status=503 times=1"
                               settings: latency=2s status=N body=TEXT reset=before|after truncate
                               invalid-json hang chunk-delay=100ms times=N (repeatable)
  --fail-replication DATABASE[=MESSAGE]
                               make replications to that target database fail (repeatable)
  --log                        print one line per request on stderr
  -h, --help                   show this help`;

export async function emulatorCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('emulator', args, {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    state: { type: 'string' },
    user: { type: 'string', multiple: true },
    fault: { type: 'string', multiple: true },
    'fail-replication': { type: 'string', multiple: true },
    log: { type: 'boolean' },
  });
  if (values.help) {
    io.stdout(`${EMULATOR_HELP}\n`);
    return ExitCode.ok;
  }
  if (positionals.length > 0) throw new UsageError('BAD_ARGUMENTS', `emulator: unexpected argument ${positionals[0]}`, { hint: 'see enginectl emulator --help' });
  if (!/^\d+$/.test(values.port) || Number(values.port) > 65535) {
    throw new UsageError('BAD_ARGUMENTS', `--port ${values.port}: not a port number`, { hint: 'use 0 to pick a free port' });
  }
  const emulator = new Emulator({
    state: values.state ? await loadStateFile(values.state) : undefined,
    users: (values.user ?? []).map(parseUserSpec),
    faults: (values.fault ?? []).map(parseFault),
  });
  for (const spec of values['fail-replication'] ?? []) {
    const [name, ...message] = spec.split('=');
    if (!emulator.state.databases.some((d) => d.name === name)) {
      throw new UsageError('BAD_ARGUMENTS', `--fail-replication ${name}: no such database`, {
        hint: `databases: ${emulator.state.databases.map((d) => d.name).join(', ')}`,
      });
    }
    emulator.failReplication(name!, message.length ? message.join('=') : undefined);
  }
  if (values.log) {
    const push = emulator.requests.push.bind(emulator.requests);
    emulator.requests.push = (...records) => {
      for (const r of records) queueMicrotask(() => io.stderr(`${r.method} ${r.path}${r.fault ? ` [fault: ${r.fault}]` : ''}\n`));
      return push(...records);
    };
  }
  let running;
  try {
    running = await serve(emulator, { port: Number(values.port), host: values.host });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError('EMULATOR_LISTEN', `emulator: cannot listen on ${values.host}:${values.port} (${code ?? (error as Error).message})`, {
      hint: code === 'EADDRINUSE' ? 'the port is taken; choose another or --port 0' : 'check --host and --port',
    });
  }
  io.stdout(`listening on ${running.url}\n`);
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await running.close();
  return ExitCode.ok;
}
