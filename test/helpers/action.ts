// Runs a committed action bundle as the GitHub runner does: INPUT_* variables (with the
// action.yml defaults filled in), temp GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and GITHUB_EVENT_PATH,
// a workspace, RUNNER_TEMP; and a local GitHub API that records every call.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const FAKE_GITHUB_TOKEN = 'ghs_FakeWorkflowToken0123456789abcdef';

let node24: string | undefined;
/** The Node 24 binary (npx -y node@24), fetched once. */
export function node24Path(): string {
  node24 ??= execFileSync('npx', ['-y', 'node@24', '-p', 'process.execPath'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 300_000,
  }).trim();
  return node24;
}

export interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  dir: string;
  /** Every file the run left in its directory, for secret scans. */
  files(): string[];
}

/** Parses the GITHUB_OUTPUT file (NAME<<DELIMITER ... DELIMITER). */
export function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i]!);
    if (!m) continue;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i]!);
    out[m[1]!] = value.join('\n');
  }
  return out;
}

export interface ActionOptions {
  /** Directory of the action.yml: '.' or 'actions/vfs-update'. */
  action: string;
  inputs: Record<string, string>;
  env?: Record<string, string>;
  files?: Record<string, string>;
  event?: unknown;
  githubApi?: string;
  node?: string;
  /** Where the runner finds the action's checkout (ROOT by default; a path through a symbolic link). */
  root?: string;
  /** Told of the process once it is started (to signal it). */
  onSpawn?: (child: ChildProcess) => void;
}

export async function runActionBundle(t: TestContext, options: ActionOptions): Promise<ActionRun> {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-action-'));
  const workspace = join(dir, 'workspace');
  const temp = join(dir, 'runner-temp');
  mkdirSync(workspace, { recursive: true });
  mkdirSync(temp, { recursive: true });
  for (const [name, text] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(workspace, name)), { recursive: true });
    writeFileSync(join(workspace, name), text);
  }
  const outputFile = join(dir, 'github-output');
  const summaryFile = join(dir, 'step-summary.md');
  const eventFile = join(dir, 'event.json');
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '');
  writeFileSync(eventFile, JSON.stringify(options.event ?? {}));

  const meta = parse(readFileSync(join(ROOT, options.action, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default?: string }>;
    runs: { main: string };
  };
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_EVENT_PATH: eventFile,
    GITHUB_EVENT_NAME:
      options.event && typeof options.event === 'object' && 'pull_request' in options.event ? 'pull_request' : 'push',
    GITHUB_REPOSITORY: 'acme/erp',
    GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
    GITHUB_REF: 'refs/heads/main',
    GITHUB_RUN_ID: '4242',
    GITHUB_SERVER_URL: 'https://github.example.com',
    GITHUB_API_URL: options.githubApi ?? 'http://127.0.0.1:9',
    GITHUB_WORKSPACE: workspace,
    RUNNER_TEMP: temp,
    ...options.env,
  };
  for (const [name, input] of Object.entries(meta.inputs)) {
    const given = options.inputs[name];
    const value = given ?? (input.default === '${{ github.token }}' ? FAKE_GITHUB_TOKEN : input.default);
    if (value !== undefined) env[`INPUT_${name.toUpperCase()}`] = value;
  }
  for (const name of Object.keys(options.inputs))
    if (!(name in meta.inputs)) throw new Error(`${options.action}/action.yml has no input ${name}`);
  const main = join(options.root ?? ROOT, options.action, meta.runs.main);
  const child = spawn(options.node ?? process.execPath, [main], {
    cwd: workspace,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  options.onSpawn?.(child);
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  const walk = (d: string): string[] => {
    return readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
  };
  return {
    code,
    stdout,
    stderr,
    outputs: parseOutputs(readFileSync(outputFile, 'utf8')),
    summary: readFileSync(summaryFile, 'utf8'),
    dir,
    files: () => walk(dir).filter((f) => !f.startsWith(workspace)),
  };
}

export interface GitHubCall {
  method: string;
  path: string;
  body: Record<string, unknown>;
  authorization: string | undefined;
}

/** A local GitHub REST API for comments and deployments, keeping what it was told. */
export async function startGitHubApi(t: TestContext) {
  const calls: GitHubCall[] = [];
  /** Comments as GitHub lists them; the workflow token's are github-actions[bot]'s. */
  const comments: { id: number; body: string; user: { login: string } }[] = [];
  let nextId = 1000;
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    calls.push({ method: req.method ?? '', path, body, authorization: req.headers.authorization });
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    let m: RegExpExecArray | null;
    if (req.method === 'GET' && /^\/repos\/acme\/erp\/issues\/\d+\/comments$/.test(path)) return send(200, comments);
    if (req.method === 'POST' && /^\/repos\/acme\/erp\/issues\/\d+\/comments$/.test(path)) {
      const comment = { id: nextId++, body: String(body.body), user: { login: 'github-actions[bot]' } };
      comments.push(comment);
      return send(201, comment);
    }
    if (req.method === 'PATCH' && (m = /^\/repos\/acme\/erp\/issues\/comments\/(\d+)$/.exec(path))) {
      const comment = comments.find((c) => c.id === Number(m![1]));
      if (!comment) return send(404, { message: 'Not Found' });
      comment.body = String(body.body);
      return send(200, comment);
    }
    if (req.method === 'POST' && path === '/graphql' && /viewer\s*\{\s*login/.test(String(body.query)))
      return send(200, { data: { viewer: { login: 'github-actions[bot]' } } });
    if (req.method === 'POST' && path === '/repos/acme/erp/deployments')
      return send(201, { id: 42, environment: body.environment });
    if (req.method === 'POST' && path === '/repos/acme/erp/deployments/42/statuses')
      return send(201, { id: nextId++, state: body.state });
    send(404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls, comments };
}

/** A GitHub API keeping its Deployments (each its own id, payload and statuses), listed newest first as GitHub lists them. */
export async function startDeploymentsGitHub(t: TestContext) {
  const deployments: { id: number; environment: string; payload: unknown; states: string[] }[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const body = JSON.parse(raw || '{}') as { environment?: string; payload?: unknown; state?: string };
      const send = (status: number, value: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (url.pathname === '/repos/acme/erp/deployments' && req.method === 'GET')
        return send(
          200,
          deployments
            .filter((d) => d.environment === url.searchParams.get('environment'))
            .reverse()
            .map(({ id, environment, payload }) => ({ id, environment, payload })),
        );
      if (url.pathname === '/repos/acme/erp/deployments' && req.method === 'POST') {
        const made = {
          id: 100 + deployments.length,
          environment: body.environment!,
          payload: body.payload,
          states: [],
        };
        deployments.push(made);
        return send(201, { id: made.id, environment: made.environment, payload: made.payload });
      }
      const status = /^\/repos\/acme\/erp\/deployments\/(\d+)\/statuses$/.exec(url.pathname);
      const deployment = status && deployments.find((d) => d.id === Number(status[1]));
      if (deployment && req.method === 'POST') return (deployment.states.push(body.state!), send(201, {}));
      send(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, deployments };
}
