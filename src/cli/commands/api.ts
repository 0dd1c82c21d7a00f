// `enginectl api METHOD PATH [--data JSON]`: one raw call to the API, like `gh api`. Prints the
// body (JSON pretty-printed) on stdout; exits 0 for a 2xx answer, 1 otherwise. What it prints is
// the server's, and is inert wherever it lands (a CI log, a terminal, jq): JSON as JSON escapes
// that parse to the same values, text neutralised unless --raw, headers and errors neutralised;
// an answer's credential fields `***` unless --show-credentials (api-answer.ts).
import { EngineClient, type RawRequest, type ServerConfig } from '../../api/index.ts';
import { serverMessage } from '../../api/errors.ts';
import { MAX_TIMER_MS, parseDuration, shownDuration, TIMER_LIMIT } from '../../duration.ts';
import { ExitCode, interruptedRead, UsageError } from '../../errors.ts';
import { undecodedNameHint } from '../../file-name.ts';
import { parseCommandArgs } from '../args.ts';
import { chooseCi, type CliIO } from '../io.ts';
import { callMasker } from '../api-masker.ts';
import { answerToPrint } from '../api-answer.ts';
import { serverFromEnv } from '../../api/server-env.ts';
import { withEmbeddedEmulator } from '../embedded.ts';
import type { Masker } from '../../runner/masker.ts';
import { jsonErrorAt } from '../../text/bounded-json.ts';
import { API_BASE } from '../../api/areas.ts';
import { MAX_REQUEST_BODY_BYTES } from '../../api/exchange.ts';
import { TooLarge } from '../../read-text-file.ts';
import { neutralise } from '../../text/neutralise.ts';
import { inertJson } from '../../text/inert-json.ts';
import { refuseRewrittenPath } from '../api-path.ts';
import { toldOfWrite, unknownWriteLine } from '../api-write.ts';
import { shownHeader } from '../response-headers.ts';

export const API_HELP = `Usage: enginectl api METHOD PATH [options]

One raw call to the enterprise API. The server is ENGINE_URL with ENGINE_USERNAME and
ENGINE_PASSWORD, or the embedded emulator with --emulator (as admin/admin unless
ENGINE_USERNAME is set). Prints the response body; JSON is pretty-printed, its strings written
so that no CI log or terminal acts on them and they parse to the server's exact values (for jq);
a text body is shown inert (CI commands broken, control characters made visible) unless --raw.
A JSON answer's credential fields (ipassword, apiToken, client_secret, ...) are printed *** and
named on stderr, unless --show-credentials.

Arguments:
  METHOD                GET, POST, PUT, PATCH or DELETE
  PATH                  an API path, e.g. /api/monitoring/v1/engines (a ?query is kept)

Options:
  -d, --data BODY       request body: JSON text, or @FILE, or @- for standard input (16 MiB at most)
  --content-type TYPE   body media type (default application/json; text/plain for a license code)
  -i, --include         print the status line and response headers first (cookie values masked)
  --raw                 the body not made inert (secrets still masked): text as the server
                        sent it, JSON without the escapes; for a file or a pipe, not a CI log
  --show-credentials    print the answer's credential fields as the server gave them, each
                        registered with the CI's masking first; for a pipe (| jq -r .ipassword)
  --timeout DURATION    per-request limit (default 2h), e.g. 30s, 5m
  --ca-file FILE        extra CA certificate (PEM) to trust
  --insecure            skip TLS certificate verification (self-signed test servers only)
  --emulator            start the embedded emulator and call it
  -h, --help            show this help

Exit codes: 0 the server answered 2xx, 1 it did not or could not be reached, 2 invalid input.

Examples:
  enginectl api GET /api/monitoring/v1/engines --emulator
  enginectl api POST /api/devops/v1/update/vfs --data @vfs.json
  enginectl api GET '${API_BASE.classes}/classes/22/entities?entidade=3001'`;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A body over MAX_REQUEST_BODY_BYTES, refused before anything is sent; `size` unknown when a stream was read up to the limit. */
function tooLarge(value: string, size: number | undefined): UsageError {
  const bytes = size === undefined ? `over ${MAX_REQUEST_BODY_BYTES}` : String(size);
  return new UsageError(
    'BAD_DATA',
    `--data ${value.startsWith('@') ? `${value}: the body` : 'the body'} is ${bytes} bytes; a request body is limited to ${MAX_REQUEST_BODY_BYTES} bytes (16 MiB); nothing was sent`,
    { hint: 'send less in one call (a call per entity, per file), or check that you named the right file' },
  );
}

/** The body --data gives: its text, or the file's or standard input's, read no further than the limit of a request body. */
async function readData(value: string, io: CliIO): Promise<string> {
  const text = value.startsWith('@') ? await readDataFile(value, io) : value;
  // The reader of a test (or any other) may not stop at the limit: the size is checked here in any case.
  const size = Buffer.byteLength(text);
  if (size > MAX_REQUEST_BODY_BYTES) throw tooLarge(value, size);
  return text;
}

async function readDataFile(value: string, io: CliIO): Promise<string> {
  const options = { limit: MAX_REQUEST_BODY_BYTES };
  try {
    return await (value === '@-' ? io.readStdin(options) : io.readFile(value.slice(1), options));
  } catch (error) {
    // A signal stopped the read (a pipe or a FIFO whose writer stalls): an interruption, not a bad file.
    const from = value === '@-' ? 'standard input' : 'the file';
    const interrupted = interruptedRead(io.signal, `--data ${value}: reading ${from}`, 'nothing was sent');
    if (interrupted) throw interrupted;
    if (error instanceof TooLarge) throw tooLarge(value, error.size);
    throw new UsageError(
      'BAD_DATA',
      `--data ${value}: cannot read ${from} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      { hint: undecodedNameHint(value.slice(1), error) },
    );
  }
}

function buildRequest(
  method: string,
  target: string,
  text: string | undefined,
  contentType: string | undefined,
): RawRequest {
  if (!target.startsWith('/'))
    throw new UsageError('BAD_ARGUMENTS', `api: PATH must start with /, got "${target}"`, {
      hint: 'e.g. /api/monitoring/v1/engines',
    });
  refuseRewrittenPath(target);
  const url = new URL(target, 'http://x');
  const query = Object.fromEntries(url.searchParams);
  const req: RawRequest = { method, path: url.pathname, query: Object.keys(query).length ? query : undefined };
  if (text === undefined) return req;
  const type = contentType ?? 'application/json';
  if (type === 'application/json' || type.endsWith('+json')) {
    try {
      req.body = { json: JSON.parse(text) };
    } catch (error) {
      throw new UsageError('BAD_DATA', `--data is not valid JSON${jsonErrorAt(error)}`, {
        hint: 'quote the JSON for your shell, or pass --content-type for another body type',
      });
    }
  } else req.body = { text, contentType: type };
  return req;
}

function printResponse(
  io: CliIO,
  res: Awaited<ReturnType<EngineClient['request']>>,
  options: { include: boolean; raw: boolean; showCredentials: boolean },
  masker: Masker,
): void {
  // An answer's credentials are learnt (and said) before any line, headers included, is printed.
  const say = (line: string) => io.stderr(`${line}\n`);
  const answer =
    res.text === '' || typeof res.body === 'string'
      ? res.body
      : answerToPrint(res.body, masker, { show: options.showCredentials, ci: chooseCi(io), say });
  if (options.include) {
    io.stdout(`HTTP ${res.status}\n`);
    for (const [k, v] of Object.entries(res.headers))
      io.stdout(`${neutralise(masker.mask(`${k}: ${shownHeader(k, v)}`))}\n`);
    io.stdout('\n');
  }
  if (res.text === '') return;
  // JSON is masked as values (it stays valid JSON whatever a secret's value is; its credential
  // fields ***: api-answer.ts), then written with JSON escapes where a CI would read a command (the
  // same values for jq); text is masked as text, then neutralised. --raw keeps what the server sent (masked).
  let body: string;
  if (typeof res.body === 'string') {
    const text = masker.mask(res.body);
    body = options.raw ? text : neutralise(text.replace(/\r\n/g, '\n'));
  } else body = options.raw ? JSON.stringify(answer, null, 2) : inertJson(answer);
  io.stdout(body.endsWith('\n') ? body : `${body}\n`);
}

/**
 * What `enginectl api` accepts (and -h, --help), as its parser reads it: the table of
 * commands in docs/pipeline-format.md is tested against it (test/cli/command-table.test.ts).
 */
export const OPTIONS = {
  data: { type: 'string', short: 'd' },
  'content-type': { type: 'string' },
  include: { type: 'boolean', short: 'i' },
  raw: { type: 'boolean' },
  'show-credentials': { type: 'boolean' },
  timeout: { type: 'string' },
  'ca-file': { type: 'string' },
  insecure: { type: 'boolean' },
  emulator: { type: 'boolean' },
} as const;

export async function apiCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('api', args, OPTIONS);
  if (values.help) {
    io.stdout(`${API_HELP}\n`);
    return ExitCode.ok;
  }
  if (positionals.length !== 2) {
    throw new UsageError('BAD_ARGUMENTS', `api: expected METHOD and PATH, got ${positionals.length} argument(s)`, {
      hint: 'see enginectl api --help',
    });
  }
  const method = positionals[0]!.toUpperCase();
  if (!METHODS.includes(method))
    throw new UsageError('BAD_ARGUMENTS', `api: unknown method ${positionals[0]}`, {
      hint: `use one of ${METHODS.join(', ')}`,
    });
  let timeoutMs: number | undefined;
  if (values.timeout !== undefined) {
    timeoutMs = parseDuration(values.timeout);
    // The timeout is a timer: a longer one would fire after 1 ms.
    if (!timeoutMs || timeoutMs > MAX_TIMER_MS)
      throw new UsageError(
        'BAD_ARGUMENTS',
        `--timeout ${shownDuration(values.timeout)}: ${timeoutMs ? TIMER_LIMIT : 'not a duration'}`,
        { hint: 'write 30s, 5m, 2h or 1h30m' },
      );
  }
  const data = values.data === undefined ? undefined : await readData(values.data, io);
  const request = buildRequest(method, positionals[1]!, data, values['content-type']);

  const call = async (server: ServerConfig, embedded = false): Promise<number> => {
    // The embedded emulator's users live and die with this process: nothing of theirs to protect.
    const masker = callMasker(embedded ? { url: server.url } : server, request, io);
    const client = new EngineClient(
      { ...server, timeoutMs, caFile: values['ca-file'], insecureSkipTlsVerify: values.insecure },
      { env: io.env, redact: (text) => masker.mask(text) },
    );
    try {
      const res = await client.request(request, { signal: io.signal }).catch(toldOfWrite(method, request.path));
      const shown = { include: values.include ?? false, raw: values.raw ?? false };
      printResponse(io, res, { ...shown, showCredentials: values['show-credentials'] ?? false }, masker);
      if (res.status >= 200 && res.status < 300) return ExitCode.ok;
      io.stderr(
        `enginectl: ${neutralise(`${method} ${request.path} answered HTTP ${res.status}${res.text ? `: ${serverMessage(masker.mask(res.text))}` : ''}`)}\n`,
      );
      io.stderr(unknownWriteLine(method, request.path, res) ?? '');
      return ExitCode.failed;
    } finally {
      await client.close();
    }
  };

  if (values.emulator) {
    return withEmbeddedEmulator((url) =>
      call(
        {
          url,
          username: io.env.ENGINE_USERNAME ?? 'admin',
          password: io.env.ENGINE_USERNAME ? io.env.ENGINE_PASSWORD : 'admin',
        },
        true,
      ),
    );
  }
  const server = serverFromEnv(io.env);
  if (!server) {
    throw new UsageError('NO_SERVER', 'api: no server to call', {
      hint: 'set ENGINE_URL (with ENGINE_USERNAME and ENGINE_PASSWORD), or pass --emulator to call the embedded emulator',
    });
  }
  return call(server);
}
