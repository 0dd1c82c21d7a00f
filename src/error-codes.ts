// Every error code enginectl gives, in one table: the exit code it leads to and what the user
// should do. docs/error-codes.md shows it; a test checks that every code thrown in src/ is here.

export interface ErrorCodeDoc {
  /** The process exit code when this error ends a command (1 for a step's failure). */
  exit: 1 | 2 | 69 | 75;
  /** A sharded run's worker (run --shard I/N) exits otherwise: 69, run the same index again. */
  worker?: 69;
  /** What to do about it. */
  action: string;
}

const usage = (action: string): ErrorCodeDoc => ({ exit: 2, action });
const step = (action: string): ErrorCodeDoc => ({ exit: 1, action });
const parked = (action: string): ErrorCodeDoc => ({ exit: 75, action });
const unavailable = (action: string): ErrorCodeDoc => ({ exit: 69, action });

export const ERROR_CODES = {
  // Invalid input (exit 2): nothing was sent.
  PIPELINE_INVALID: usage('fix the file at each FILE:LINE:COL printed; `enginectl validate` lists them all'),
  BAD_ARGUMENTS: usage('fix the command line; `enginectl <command> --help` lists the options'),
  UNKNOWN_COMMAND: usage('use one of the commands `enginectl --help` lists'),
  BAD_INPUT: usage("fix the action's input named in the message"),
  BAD_VAR: usage('give --var NAME=VALUE with a var the pipeline declares or reads'),
  BAD_ONLY: usage('give --only KEY=VALUE with a matrix key and value that exist'),
  BAD_REPORT_PATH: usage('choose a report path in a directory this process can write'),
  BAD_PROXY: usage("set HTTPS_PROXY / HTTP_PROXY to the proxy's URL (http://proxy.example.com:3128), or unset it"),
  SAME_FILE: usage(
    'give each output (report, dotenv, saved plan) a file of its own, apart from the files the command reads (the pipeline, its includes, the journal, a state)',
  ),
  BAD_JOURNAL: usage('give the journal file a run wrote with --journal, in a writable place'),
  JOURNAL_UNAUTHENTICATED: usage(
    'the journal is sealed with ENGINECTL_JOURNAL_KEY and a record is not: read it with the key that wrote it, and check where the file came from',
  ),
  JOURNAL_LOCKED: usage(
    'another run appends to this journal (its lock, or in a run store its lease, held): wait for it, or delete JOURNAL.lock if that run is gone (a lost runner); a lease lapses by itself',
  ),
  BAD_REPORT: usage('give report --merge the JSON reports (--report-json) or journals (--journal) the jobs wrote'),
  MERGE_MISMATCH: usage(
    'merge the reports of one pipeline (the same file, includes, --var values and inventory), or pass --force',
  ),
  MERGE_OVERLAP: usage(
    'merge one report per matrix instance: leave out the report of an earlier attempt of the same job',
  ),
  BAD_PLAN: usage(
    'make the plan again (enginectl plan FILE --live --out F) and run with it (enginectl run FILE --plan F)',
  ),
  PLAN_KEY: usage(
    'run with ENGINECTL_JOURNAL_KEY set to the key the plan was made with (one CI secret for plan and run), or make the plan again (enginectl plan FILE --live --out F) with the key of the run',
  ),
  RESUME_HALTED: usage("the journal's rollout halted: check that wave's sites, then resume with --continue-rollout"),
  PLAN_STALE: usage(
    'review what moved since the plan was saved, then make the plan again (enginectl plan FILE --live --out F) and run with it (enginectl run FILE --plan F)',
  ),
  AUDIT_WRITES: usage('a drift audit (plan --live --expect) only reads: audit with a pipeline of checks'),
  NOT_PARKED: usage(
    'run --continue and decide take a parked run of the store: enginectl runs --store URL --parked lists them; resume any other run with --resume',
  ),
  DECISION_REFUSED: usage(
    'decide on what the parked run waits for (enginectl decide --store URL --run ID lists it); --retry needs verify to say not applied, or --accept-cannot-tell --reason',
  ),
  PIPELINE_NOT_THE_RUNS: usage(
    "read a run's calls in doubt back (decide, verify) with the pipeline it ran: its file (--pipeline FILE, or from the run's checkout) and the --var values it was given, the servers' URLs as it had them",
  ),
  RESUME_PARKED: usage(
    'the run is parked: go on with run FILE --store URL --continue RUN (enginectl decide --store URL --run RUN lists what it waits for)',
  ),
  RESUME_REFUSED: usage(
    'resume the same file, vars and --only, or decide with --in-doubt verify, retry or skip, or pass --force',
  ),
  BAD_DATA: usage('give --data valid JSON (or @FILE, @-) of 16 MiB at most, or another --content-type'),
  NO_SERVER: usage(
    'set ENGINE_URL (with ENGINE_USERNAME and ENGINE_PASSWORD), add a servers: block, or use --emulator',
  ),
  BAD_SERVER_URL: usage(
    'give the base_url of the API: an http(s) URL, a port up to 65535, no white space, no @ after its host (a / in a password is written %2F)',
  ),
  BAD_SERVER: usage('write true or false for insecure-skip-tls-verify and allow-insecure-http'),
  UNKNOWN_SERVER: usage("make the step's server name (or its matrix values) one of the servers"),
  INSECURE_HTTP: usage('use https://, or on a trusted network allow-insecure-http: true'),
  CA_FILE_UNREADABLE: usage('give ca-file a PEM file this process can read'),
  CA_FILE_INVALID: usage('give ca-file a PEM certificate (convert DER with openssl x509 -inform der)'),
  EXPRESSION: usage('fix the expression named in the message (a var, the name, a server)'),
  NO_MATRIX: usage('name a step with a matrix (matrix --step ID)'),
  NO_SUCH_STEP: usage('name a step id that exists (matrix --step ID)'),
  AMBIGUOUS_MATRIX: usage('name the step with --step ID: steps have different matrices'),
  BAD_CI: usage('give --ci one of the CI systems the message names (the ones `enginectl run --help` lists)'),
  BAD_FAULT: usage('write --fault "[METHOD] PATH SETTINGS" as `enginectl emulator --help` shows'),
  BAD_USER_SPEC: usage('write --user NAME:PASSWORD:SCOPES'),
  BAD_STATE_FILE: usage('give --state a JSON state file as docs/emulator.md describes'),
  EMULATOR_LISTEN: usage('choose another --port (0 picks a free one) or --host'),
  // A step's failure (exit 1): the run says which step, the call, and the server.
  API_CONNECTION_REFUSED: step('check that the server runs and the URL and port are right'),
  API_CONNECTION_RESET: step('check the server and any proxy; a write may or may not have been applied'),
  API_DNS_FAILURE: step('check the host name of the server URL and this machine’s DNS'),
  API_LOCALHOST_OFF_MACHINE: step(
    'map the localhost name to a 127.x.x.x address in /etc/hosts, or use the server’s real host name with https://',
  ),
  API_TLS_FAILURE: step('fix what the message says: the URL’s host, the certificate’s expiry, or ca-file'),
  API_PROXY: step('fix HTTPS_PROXY/HTTP_PROXY (credentials for a 407) or NO_PROXY'),
  API_REDIRECT: step('use the address the redirect points to as the server URL, if it is the API'),
  API_TRANSPORT: step('check the network path to the server'),
  API_TIMEOUT: step("raise the server's timeout if the operation takes longer; check the server"),
  API_READ_ONLY: step('a live plan never writes: run the pipeline to make this call'),
  API_BAD_PATH: step('an id of . or .. names no entity the API can be asked for: check where the value came from'),
  API_ABORTED: step('the run was interrupted: resume it from its journal if it had one'),
  API_UNAUTHORIZED: step("check the server's user name and password"),
  API_FORBIDDEN: step('ask for the scope the message names'),
  API_NOT_FOUND: step('check the key or id the message names'),
  API_HTTP_STATUS: step("read the server's message; its logs say why"),
  API_INVALID_RESPONSE: step('check the URL points at the API, not a proxy or login page'),
  API_RESPONSE_TOO_LARGE: step("raise the server's max-response-size; for a write, check whether it was applied"),
  API_UNEXPECTED_STATUS: step('api/request: the status was not expect-status; read the body'),
  STEP_FAILED: step('the step ran and its result says it failed (success: false, a gate, an assertion)'),
  STEP_TIMEOUT: step("raise the step's timeout, or check the server"),
  STEP_ERROR: step('an unexpected error in the step: report it with the run’s journal'),
  GATE_TIMEOUT: step("the server did not answer a gate's check within its wait: check the server"),
  REPLICATION_FAILED: step('the server answered HTTP 500 to a sync: its logs say which replication failed'),
  INPUT_INVALID: step('an input resolved at run time is not of its type: fix the expression or value'),
  CANCELLED: step('the run was interrupted (exit 130/143/129): run it again, or resume from its journal'),
  IN_DOUBT: step('enginectl verify JOURNAL reads the target back; then --resume with --in-doubt verify, skip or retry'),
  ROLLOUT_HALTED: step(
    'a wave of the rollout failed past its budget, or its analysis failed: nothing was undone; fix the cause, then let the rollout go on: run --resume JOURNAL --continue-rollout',
  ),
  WINDOW_CLOSED: step(
    'the write did not fit its window (none open, it would overrun the end, or a freeze): the message names the next window it fits in; run then, or with --override-freeze --reason "..." as an identity override-freeze: lists. A write no window within 400 days fits is refused before the run opens its journal or sends anything: give its windows a longer duration (or a shorter expected:)',
  ),
  SHARD_UNAVAILABLE: unavailable(
    "a worker of a sharded run could not reach its run store (STORE_FAILED, not refused for its permissions: that is 1) or take its index's lease (LEASE_HELD) and sent nothing: run the same index again (a Kubernetes Job retries it; a CI job: re-run it)",
  ),
  ROLLOUT_PARKED: parked(
    'the run parked (saved in the run store, exit 75): enginectl decide --store URL --run ID says what it waits for; once decided (or its bake elapsed), run --store URL --continue ID goes on',
  ),
  WINDOW_PARKED: parked(
    'a write did not fit its window and the run has a run store: it parked (exit 75) until the next window the write fits in; run --store URL --continue ID at or after then goes on (a scheduled job at each window), earlier it parks again',
  ),
  FAIL_FAST: step('another instance of the matrix failed: fix it, or set fail-fast: false'),
  NOT_STARTED: step('the run ended before this step (a killed run): resume it from its journal'),
  STORE_FAILED: {
    ...step(
      "check the run store (its URL, credentials and reachability): the run stopped before its next call, every report was written, and a resume from the store goes on. A sharded run's worker that met it before it sent anything exits 69 (SHARD_UNAVAILABLE): run the same index again; after, 1. A refusal of permissions (EACCES, EPERM; S3's 401, 403) is 1 for a worker too, before it sent anything: the index run again is refused the same; fix what the hint names (the directory's owner and mode, the credentials' policy) first",
    ),
    worker: 69,
  },
  STORE_DAMAGED: step(
    "a record of the run store is not enginectl's (cut, altered, or written by something else): a retry reads the same record, so nothing goes on from it; put the record back, or plan the rollout again (enginectl shard)",
  ),
  SHARD_REFUSED: usage(
    "run each shard with the pipeline, --var values and shard count enginectl shard was given (its manifest says), and an index from 1 to N; a pipeline to shard needs rollout: with every step over its key, and no lease: (its workers hold no lease of the pipeline's: run it in one job)",
  ),
  OVERRIDE_REFUSED: usage(
    "--override-freeze is only for the identities the pipeline's override-freeze: lists (matched on the CI's actor): ask one of them, or add yours to the pipeline",
  ),
  LEASE_HELD: {
    ...usage(
      "another run holds the lease: wait for it (enginectl lease status), give lease: a longer wait:, or release a lease whose holder is gone (enginectl lease release --reason). A sharded run's worker whose index's lease a live attempt of it still holds when its wait ends exits 69 (SHARD_UNAVAILABLE), having sent nothing: run the same index again once that attempt ended",
    ),
    worker: 69,
  },
  LEASE_LOST: {
    ...step(
      "the lease is no longer this run's: another run took it over (this run was paused or cut from the store past its ttl: that run verified what this one sent; resume from the store once it is done), or an operator released it (lease release: nothing verified this run's calls; resume from the store, which verifies them). A sharded run's worker whose lease lapsed exits 69: run the same index again, what it left is resumed with verify",
    ),
    worker: 69,
  },
  LEASE_TAKEOVER_REFUSED: usage(
    'the expired holder left calls verify cannot tell: check each on the server, then take over with --take-over --reason "...", recorded',
  ),
  STORE_VERSION: usage(
    'a record of the run store was written by a newer enginectl than this one (a job of the rollout ran a newer version): run every job of this store (run, --continue, --resume, the shards, decide, verify, report, lease) with that enginectl or a later one; nothing was done from that record, and it is no damage: do not remove it',
  ),
  STORE_REFUSED: usage(
    'use a run store that honours create-only writes (If-None-Match: * on S3, a directory with O_EXCL and link); nothing was sent',
  ),
  JOURNAL_WRITE_FAILED: step(
    "free space on the journal's disk (or choose another --journal), or wait for the run store to answer promptly, then --resume from it; the run stopped before its next call and every report was written",
  ),
  UNDER_WAY: step(
    'a sharded run was still under way when its merged report was read (report --merge --store): its worker held the site, or the site had not started; read the report again once the workers ended',
  ),
  NOT_FINISHED: step('the run ended during this step (a killed run): resume it from its journal'),
  // After the run: its outcome stands, a report could not be written.
  REPORT_NOT_WRITTEN: step(
    'free space or fix the permissions of the report path named (the exit is 1 even when every step succeeded); the other reports were written',
  ),
} as const satisfies Record<string, ErrorCodeDoc>;

/** A code of the table: the compiler refuses any other. */
export type ErrorCode = keyof typeof ERROR_CODES;
