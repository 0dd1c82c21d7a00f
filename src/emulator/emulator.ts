// The emulator of the whole enterprise API: state, users, faults and the request log, and
// `handle`, a function from request to response (authenticate, route, check scopes, run).
import type { RouteContext } from './context.ts';
import { control } from './control.ts';
import { FaultSet, type FaultRule } from './faults/index.ts';
import { HttpProblem, json, type EmuRequest, type EmuResponse } from './http.ts';
import { Router } from './router.ts';
import { classesRoutes } from './routes/classes.ts';
import { devopsRoutes } from './routes/devops.ts';
import { licensingRoutes } from './routes/licensing.ts';
import { monitoringRoutes } from './routes/monitoring.ts';
import { withAllFields } from './entity-model.ts';
import { sampleState } from './sample-state.ts';
import { scopesFor } from './scopes.ts';
import type { EmulatorState } from './state.ts';
import { authenticate, defaultUsers, type User } from './users.ts';
import { EngineView } from './engine-view.ts';
import { startEngine } from './engine-start.ts';

export interface EmulatorOptions {
  /** Initial state; the documented sample state when absent. */
  state?: EmulatorState;
  /** Users besides the defaults (a user of the same name replaces a default). */
  users?: User[];
  faults?: FaultRule[];
  /** A fault set shared with other sites (sites.ts); `faults` are added to it. */
  faultSet?: FaultSet;
  /** The clock (epoch ms); Date.now when absent. */
  now?: () => number;
  /**
   * How long monitoring shows an Engine a system update changed as it was, and hides an alert the
   * raise-alert fault raised (engine-view.ts): until the next refresh, every 2 minutes, when
   * absent; 0 shows them at once, for a test whose subject is not monitoring (a sharded run's
   * protocol over workers on real clocks).
   */
  monitoringRefreshMs?: number;
}

export interface RequestRecord {
  method: string;
  path: string;
  status: number;
  /** The fault applied, when one was. */
  fault?: string;
  at: number;
  /** A write (not GET) the API handled and answered 2xx: it took effect, whatever reached the client. */
  applied?: boolean;
}

export class Emulator {
  private world!: EmulatorState;
  /** The whole state; one set in its place (a state file, a test's rewind) is shown to monitoring as it is. */
  get state(): EmulatorState {
    return this.world;
  }
  set state(state: EmulatorState) {
    this.world = state;
    this.shown.forget();
  }
  readonly users: User[];
  readonly faults: FaultSet;
  readonly requests: RequestRecord[] = [];
  /** API requests being answered now, and the most at once so far. */
  inFlight = 0;
  peakInFlight = 0;
  readonly now: () => number;
  private readonly router = new Router();
  private readonly control = control(this);
  private currentUser: User | undefined;
  /** State changes due later on the clock (a fault's raise-alert or stop-engine with after=). */
  private readonly pending: { at: number; apply: () => void }[] = [];
  /** The Engines as monitoring shows them (engine-view.ts). */
  readonly shown: EngineView;

  constructor(options: EmulatorOptions = {}) {
    this.now = options.now ?? Date.now;
    this.shown = new EngineView(options.monitoringRefreshMs);
    this.faults = options.faultSet ?? new FaultSet();
    this.state = normaliseEntities(structuredClone(options.state ?? sampleState(this.now())));
    const extra = options.users ?? [];
    this.users = [...defaultUsers().filter((u) => !extra.some((e) => e.name === u.name)), ...extra];
    for (const rule of options.faults ?? []) this.faults.add(rule);
    const ctx = (): RouteContext => ({
      state: this.state,
      now: this.now,
      user: this.currentUser!,
      engines: this.shown,
    });
    classesRoutes(this.router, ctx);
    licensingRoutes(this.router, ctx);
    monitoringRoutes(this.router, ctx);
    devopsRoutes(this.router, ctx);
  }

  /** Changes `apply` makes to the state, when the clock reaches `at`. */
  schedule(at: number, apply: () => void): void {
    this.pending.push({ at, apply });
    this.applyDue();
  }

  private applyDue(): void {
    if (this.pending.length === 0) return;
    const now = this.now();
    for (const due of this.pending.filter((p) => p.at <= now)) {
      this.pending.splice(this.pending.indexOf(due), 1);
      due.apply();
    }
  }

  /** Answers one request as the enterprise server would (faults are applied by the server). */
  handle(req: EmuRequest): EmuResponse {
    if (req.path.startsWith('/_emulator/')) return this.control(req);
    this.applyDue();
    const user = authenticate(req.headers.authorization, this.users);
    if (!user) {
      return new HttpProblem(
        401,
        'unauthorized',
        'missing or wrong credentials: send a user name and password by HTTP Basic authentication',
        [],
        {
          'www-authenticate': 'Basic realm="enterprise", charset="UTF-8"',
        },
      ).toResponse();
    }
    const match = this.router.match(req.method, req.path);
    if (match.kind === 'none') return new HttpProblem(404, 'not_found', `no API route ${req.path}`).toResponse();
    if (match.kind === 'method') {
      return new HttpProblem(
        405,
        'method_not_allowed',
        `${req.method} is not allowed on ${req.path}; allowed: ${match.allowed.join(', ')}`,
        [],
        {
          allow: match.allowed.join(', '),
        },
      ).toResponse();
    }
    const missing = scopesFor(req.method, req.path).filter((s) => !user.scopes.has(s));
    if (missing.length > 0) {
      return new HttpProblem(
        403,
        'forbidden',
        `user ${user.name} lacks the scope ${missing.join(' and ')} that this operation requires`,
        missing.map((s) => ({ field: 'scope', message: s })),
      ).toResponse();
    }
    // The contract: no query string or body unless the operation states one. A client that sends one is told, not ignored.
    if (!match.takes.query && req.query.size > 0)
      return new HttpProblem(400, 'bad_request', `${req.method} ${req.path} takes no query string`).toResponse();
    if (!match.takes.body && req.body.trim() !== '')
      return new HttpProblem(400, 'bad_request', `${req.method} ${req.path} takes no request body`).toResponse();
    this.currentUser = user;
    try {
      return match.handler(req, match.params);
    } catch (error) {
      if (error instanceof HttpProblem) return error.toResponse();
      return json(500, { status: 500, error: 'internal', message: `emulator failure: ${(error as Error).message}` });
    } finally {
      this.currentUser = undefined;
    }
  }

  /** Writes that took effect (over HTTP), optionally of one method and path: what a test of recovery counts. */
  appliedCount(method?: string, path?: string): number {
    return this.requests.filter(
      (r) =>
        r.applied &&
        (!method || r.method === method) &&
        (!path || (path.endsWith('*') ? r.path.startsWith(path.slice(0, -1)) : r.path === path)),
    ).length;
  }

  /** Requests received (over HTTP), optionally of one method and path (a `*` suffix is a prefix). */
  count(method?: string, path?: string): number {
    return this.requests.filter(
      (r) =>
        (!method || r.method === method) &&
        (!path || (path.endsWith('*') ? r.path.startsWith(path.slice(0, -1)) : r.path === path)),
    ).length;
  }

  /** Makes every replication to `database` fail with `message` (null heals it). */
  failReplication(database: string, message: string | null = `connection to ${database} lost`): void {
    const db = this.state.databases.find((d) => d.name === database);
    if (!db) throw new Error(`no database ${database} in the emulator state`);
    db.failReplication = message;
  }

  /** Starts or stops an Engine's monitoring reports (a stopped one goes offline after 5 minutes). */
  setEngineReporting(instanceId: string, reporting: boolean): void {
    const engine = this.state.engines.find((e) => e.instanceId === instanceId);
    if (!engine) throw new Error(`no Engine ${instanceId} in the emulator state`);
    if (engine.reporting && !reporting) engine.updatedAt = this.now();
    engine.reporting = reporting;
  }

  /**
   * Restarts an Engine (started again, reporting): it runs the version last installed on it (a
   * system update sent with disableEngineRestart, or one that found it offline), and reports at once.
   */
  restartEngine(instanceId: string): void {
    const engine = this.state.engines.find((e) => e.instanceId === instanceId);
    if (!engine) throw new Error(`no Engine ${instanceId} in the emulator state`);
    startEngine(engine, this.now());
    engine.reporting = true;
    engine.updatedAt = this.now();
  }
}

/** Every stored entity with all fields of its class, unset ones null (enterprise-api.md 2.1). */
function normaliseEntities(state: EmulatorState): EmulatorState {
  const full = (e: EmulatorState['entities'][number]) => {
    const cls = state.classes.find((c) => c.key === e.iclass);
    return cls ? withAllFields(state, cls, e) : e;
  };
  state.entities = state.entities.map(full);
  for (const db of state.databases) db.entities = db.entities.map(full);
  return state;
}
