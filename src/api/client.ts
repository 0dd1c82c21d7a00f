// The client of one enterprise server: the four API areas over one keep-alive connection pool,
// plus `request` for raw calls (the CLI's `api` command, the `api/request` step).
import type { Dispatcher } from 'undici';
import { Caller, responseValue, type BoundCall, type CallOptions } from './call.ts';
import { statusError } from './status-error.ts';
import type { ApiError } from './errors.ts';
import { callableServer } from './callable-server.ts';
import { ClassesApi } from './classes.ts';
import { DevOpsApi } from './devops.ts';
import { createDispatcher, givenDispatcher, type Env, type LazyDispatcher, type TlsOptions } from './dispatcher.ts';
import { LicensingApi } from './licensing.ts';
import { MonitoringApi } from './monitoring.ts';
import { placeholderAnswer, planned, type PlannedCall } from './recording.ts';
import type { RetryPolicy } from './retry.ts';
import { ServerClock, type ClockSeen } from './server-clock.ts';
import { Transport, type Query, type RequestBody, type TransportOptions } from './transport.ts';

export interface ServerConfig extends TlsOptions {
  /** The server's name in the pipeline, for messages. */
  name?: string | undefined;
  /** base_url of the API. */
  url: string;
  username?: string | undefined;
  password?: string | undefined;
  /** Per-request limit; default 2 hours. */
  timeoutMs?: number | undefined;
  /** The largest answer read; default 256 MiB (DEFAULT_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number | undefined;
  /** Send Basic credentials over plain http:// to a host that is not loopback (insecure-http.ts). */
  allowInsecureHttp?: boolean | undefined;
}

export interface ClientDeps {
  /** Environment for the proxy variables; pass process.env at the edge. */
  env?: Env;
  /** A dispatcher to use instead of the one built from the config (tests, shared pools). */
  dispatcher?: Dispatcher;
  retry?: RetryPolicy;
  sleep?: TransportOptions['sleep'];
  random?: TransportOptions['random'];
  timer?: TransportOptions['timer'];
  onRetry?: TransportOptions['onRetry'];
  /** This machine's clock as the run reads it (the journal's): each answer's Date is read against it. Date.now by default. */
  now?: (() => number) | undefined;
  redact?: TransportOptions['redact'];
  /** GET requests only: any other is refused before it leaves (plan --live). */
  readOnly?: boolean;
  /**
   * The plan's walk: every call is recorded here, as the plan shows it, and answered by a
   * placeholder shaped as the API's response (recording.ts); nothing is sent.
   */
  recordInto?: PlannedCall[];
}

export interface RawRequest {
  method: string;
  path: string;
  query?: Query | undefined;
  body?: RequestBody | undefined;
  accept?: string | undefined;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  contentType: string;
  /** Parsed JSON when the body is JSON, else its text; null when empty. */
  body: unknown;
  text: string;
  /** Requests sent, retries included. */
  attempts: number;
}

export class EngineClient {
  readonly classes: ClassesApi;
  readonly licensing: LicensingApi;
  readonly monitoring: MonitoringApi;
  readonly devops: DevOpsApi;
  private readonly caller: Caller;
  private readonly dispatcher: LazyDispatcher;
  private readonly clock: ServerClock;

  constructor(given: ServerConfig, deps: ClientDeps = {}) {
    // An invalid URL is refused before anything is sent; credentials in its user part are used.
    const config = callableServer(given);
    const recorded = deps.recordInto;
    this.clock = new ServerClock(deps.now ?? Date.now);
    this.dispatcher = recorded
      ? { get: () => Promise.reject(new Error('the recording client sends nothing')), close: async () => undefined }
      : deps.dispatcher
        ? givenDispatcher(deps.dispatcher)
        : createDispatcher(config, deps.env ?? {}, undefined, config.url);
    const transport = new Transport({
      url: config.url,
      username: config.username,
      password: config.password,
      timeoutMs: config.timeoutMs,
      maxResponseBytes: config.maxResponseBytes,
      dispatcher: this.dispatcher,
      retry: deps.retry,
      sleep: deps.sleep,
      random: deps.random,
      timer: deps.timer,
      onRetry: deps.onRetry,
      clock: this.clock,
      redact: deps.redact,
      readOnly: deps.readOnly,
      answerInstead:
        recorded &&
        ((req) => {
          recorded.push(planned(req));
          return placeholderAnswer(req);
        }),
    });
    this.caller = new Caller(transport);
    this.classes = new ClassesApi(this.caller);
    this.licensing = new LicensingApi(this.caller);
    this.monitoring = new MonitoringApi(this.caller);
    this.devops = new DevOpsApi(this.caller);
  }

  /**
   * This client bound to a step's call context: every request it sends carries the step's signal
   * and the journal's observer, whatever the step passes, so no write of a step can leave without
   * its record. A step is given only a bound client (runner/run-instance.ts). Shares the pool.
   */
  bind(call: BoundCall): EngineClient {
    const caller = new Caller(this.caller.transport, call);
    const bound = Object.create(EngineClient.prototype) as EngineClient;
    Object.assign(bound, {
      caller,
      dispatcher: this.dispatcher,
      clock: this.clock,
      classes: new ClassesApi(caller),
      licensing: new LicensingApi(caller),
      monitoring: new MonitoringApi(caller),
      devops: new DevOpsApi(caller),
    });
    return bound;
  }

  /** One raw call: any status is answered (no error for 4xx/5xx); transport faults throw. */
  async request(req: RawRequest, options: CallOptions = {}): Promise<RawResponse> {
    const response = await this.caller.send(req, options);
    return {
      status: response.status,
      headers: response.headers,
      contentType: response.contentType,
      body: responseValue(req, this.caller.transport, response),
      text: response.text,
      attempts: response.attempts,
    };
  }

  /** The server's clock as the Date of its latest answer showed it (server-clock.ts); undefined before one. */
  serverClock(): ClockSeen | undefined {
    return this.clock.latest;
  }

  /** The server's URL with its base path (no credentials), as messages name it. */
  get server(): string {
    return this.caller.transport.server;
  }

  /** The typed error a typed call would have raised for this raw answer (code, message, hint). */
  statusError(req: RawRequest, res: RawResponse): ApiError {
    return statusError(req, res, this.caller.transport);
  }

  /** Closes the connection pool (when the client built it). */
  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}
