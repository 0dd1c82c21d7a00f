// Shared by the benchmarks: timing a process, sampling its peak memory, an emulator process,
// medians. Every benchmark returns rows { name, figure, target, holds } for run.mjs's table.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const NODE = process.execPath;
export const CLI = new URL('../dist/cli.mjs', import.meta.url).pathname;
export const ROOT = new URL('..', import.meta.url).pathname;

export const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
export const ms = (v) => `${v.toFixed(0)} ms`;
export const ratio = (v) => `${v.toFixed(2)}x`;
/**
 * A over B for runs that alternated (a[i] and b[i] ran one after the other): the median of the
 * pairs' ratios, so a machine whose speed drifts during the benchmark moves both sides of a pair.
 */
export const pairedRatio = (a, b) => median(a.map((x, i) => x / b[i]));

export function tempDir(name) {
  return mkdtempSync(join(tmpdir(), `enginectl-bench-${name}-`));
}

export function writeFile(dir, name, text) {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

/** Runs a command to its end; its wall time in ms (throws when it fails unexpectedly). */
export function timed(cmd, args, env = {}, { okCodes = [0] } = {}) {
  const start = performance.now();
  const r = spawnSync(cmd, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  const took = performance.now() - start;
  if (!okCodes.includes(r.status)) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return took;
}

/** Runs a command and samples its peak resident set (VmHWM, Linux) every 10 ms: MiB. */
export function peakRss(cmd, args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'], cwd: ROOT });
    let peak = 0;
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const sample = () => {
      try {
        peak = Math.max(
          peak,
          Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0),
        );
      } catch {
        // gone
      }
    };
    const timer = setInterval(sample, 10);
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${stderr}`));
      else resolve(peak / 1024);
    });
  });
}

/**
 * A workload's row of peak memory: each process of `cases` ({ label: [cmd, args, env] }) run once
 * more, alone, its peak resident set sampled (only processes that make the calls themselves: a
 * shell's children are not its own memory).
 */
export async function peakRow(workload, cases) {
  const peaks = [];
  for (const [label, [cmd, args, env]] of Object.entries(cases))
    peaks.push(`${label} ${(await peakRss(cmd, args, env)).toFixed(0)} MiB`);
  return { name: `${workload}: peak RSS`, figure: peaks.join(', '), target: 'reported', holds: undefined };
}

/** `enginectl emulator` as its own process; resolves its URL and a stop function. */
export async function emulatorProcess(extra = []) {
  const child = spawn(NODE, [CLI, 'emulator', '--port', '0', ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`emulator exited ${code}`)));
  });
  const url = /listening on (\S+)/.exec(line)[1];
  return { url, stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM'))) };
}

export const ADMIN = { ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };

/**
 * fleetPipeline's release of `count` sites written to `dir` as `name`, its servers in inventory
 * files beside it of at most 4,000 sites each (a pipeline file, an inventory too, is limited to
 * 1 MiB: 10,000 servers written in the pipeline are 1.4 MB), as a user would split them; its path.
 */
export function fleetFiles(dir, name, count, urlOf, parallel = 50) {
  const whole = fleetPipeline(count, urlOf, parallel);
  const [head, rest] = whole.split('servers:\n');
  const servers = rest.slice(0, rest.indexOf('targets:\n')).trimEnd().split('\n');
  const includes = [];
  for (let k = 0; k * 4000 < servers.length; k++) {
    const file = `${name.replace(/\.yml$/, '')}-inventory-${k + 1}.yml`;
    writeFile(dir, file, `servers:\n${servers.slice(k * 4000, (k + 1) * 4000).join('\n')}\n`);
    includes.push(file);
  }
  return writeFile(dir, name, `${head}include: [${includes.join(', ')}]\n${rest.slice(rest.indexOf('targets:\n'))}`);
}

/** A pipeline of one update/vfs step over a matrix of `instances`, `parallel` at a time. */
export function matrixPipeline(instances, parallel) {
  const values = Array.from({ length: instances }, (_, i) => i + 1).join(', ');
  return `version: 1
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - uses: update/vfs
    matrix: { n: [${values}] }
    max-parallel: ${parallel}
    with: { target: prod, files: [1001], tracking-id: "T-\${{ matrix.n }}" }
`;
}

/**
 * A release over an inventory of `count` sites, each a server (`urlOf(site)`): a gate, a vfs
 * update and a system update per site, `parallel` at a time (bench/fleet.mjs runs it,
 * bench/validation.mjs validates it).
 */
export function fleetPipeline(count, urlOf, parallel = 50, logins = false) {
  const sites = Array.from({ length: count }, (_, i) => `site-${String(i + 1).padStart(4, '0')}`);
  const step = (text) =>
    `${text}\n    matrix: { site: "\${{ vars.sites }}" }\n    max-parallel: ${parallel}\n    server: \${{ matrix.site }}`;
  const login = (s) => (logins ? siteLogin(s) : { username: 'admin', password: 'admin' });
  const server = (s) =>
    `  ${s}: { url: "${urlOf(s)}", username: ${login(s).username}, password: ${login(s).password}${urlOf(s).startsWith('http:') ? ', allow-insecure-http: true' : ''} }`;
  return `version: 1
name: ${count.toLocaleString('en')} sites
vars:
  sites: [${sites.join(', ')}]
servers:
${sites.map(server).join('\n')}
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - ${step('uses: monitoring/alerts')}
    with: { fail-on: critical }
  - ${step('uses: update/vfs')}
    with: { target: prod, files: [1001] }
  - ${step('uses: update/system')}
    with: { target: prod }
`;
}

/**
 * A site's own login, for a fleet whose every site has its own password (each one a secret the
 * run masks: the masker's cost grows with them, which a fleet sharing one login cannot show).
 * Derived from the site's name, so the pipeline, the pool and the emulator agree without a file.
 * Letters, `-` and `_` only: a digit after a letter `e` (`7E104`) reads as a number too big for
 * YAML's fast path, which a quarter of random sets of 1,000 held, and the row would then measure
 * the full YAML reader (0.3 s for 1,000 servers) instead of the secrets.
 */
export function siteLogin(site) {
  const digest = createHash('sha256').update(`bench ${site}`).digest('base64url');
  return { username: `u-${site}`, password: digest.slice(0, 24).replace(/\d/g, (d) => 'ghijklmnop'[d]) };
}

/** The emulator's `--user` flags for fleetPipeline's sites with their own logins (every scope). */
export function siteUserFlags(count) {
  return Array.from({ length: count }, (_, i) => {
    const { username, password } = siteLogin(`site-${String(i + 1).padStart(4, '0')}`);
    return ['--user', `${username}:${password}:*`];
  }).flat();
}

/** Sites per inventory file: a pipeline file (an inventory too) is limited to 1 MiB, so a fleet of 10,000 is split as a user would split it. */
const SITES_PER_INVENTORY = 4000;

/**
 * The release as a rollout over `count` sites (a wave of them all, or `rollout`'s lines: its waves
 * and analysis), `parallel` sites at a time per process, written to `dir` as `name` with its
 * servers in inventory files beside it (`name`-inventory-K.yml, each at most SITES_PER_INVENTORY
 * sites); the pipeline's path.
 */
export function shardPipeline(dir, name, count, url, parallel, rollout = '  waves: [rest]') {
  const sites = Array.from({ length: count }, (_, i) => `site-${String(i + 1).padStart(5, '0')}`);
  const step = (text) => `  - ${text}\n    matrix: { site: "\${{ vars.sites }}" }\n    server: \${{ matrix.site }}`;
  const inventories = [];
  for (let k = 0; k * SITES_PER_INVENTORY < count; k++) {
    const part = sites.slice(k * SITES_PER_INVENTORY, (k + 1) * SITES_PER_INVENTORY);
    const file = `${name.replace(/\.yml$/, '')}-inventory-${k + 1}.yml`;
    writeFile(
      dir,
      file,
      `servers:\n${part.map((s) => `  ${s}: { url: "${url}/sites/${s}", username: admin, password: admin, allow-insecure-http: true }`).join('\n')}\n`,
    );
    inventories.push(file);
  }
  return writeFile(
    dir,
    name,
    `version: 1
name: ${count.toLocaleString('en')} sites, sharded
include: [${inventories.join(', ')}]
vars:
  sites: [${sites.join(', ')}]
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
rollout:
  over: site
${rollout}
  max-parallel: ${parallel}
steps:
${step('uses: monitoring/alerts')}
    with: { fail-on: critical }
${step('uses: update/vfs')}
    with: { target: prod, files: [1001] }
${step('uses: update/system')}
    with: { target: prod }
`,
  );
}
