// The floor of a journaled fleet release: one Node process, one undici agent, and per site the
// calls enginectl makes (a GET of its alerts, a vfs update, a GET of its Engines, which a journaled
// run reads before a system update so that verify can decide it, the system update), `P` sites at a time,
// each write preceded by a line appended to a file and fdatasync'ed, as a fair journal would.
// `node bench/fleet-pool.mjs URL SITES P JOURNAL [logins]` (`logins`: each site with its own login,
// lib.mjs siteLogin); bench/fleet-warm.ts imports poolRelease and makes it again in one process.
import { Buffer } from 'node:buffer';
import { closeSync, fdatasync, openSync, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import { Agent, request } from 'undici';
import { siteLogin } from './lib.mjs';

const sync = promisify(fdatasync);
const basic = (username, password) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
const headers = {
  authorization: basic('admin', 'admin'),
  'content-type': 'application/json',
  accept: 'application/json',
};
const target = { targetDBName: 'PROD', targetServer: 'prod-db.example.com', targetAuthToken: 'prod-token' };

/**
 * The release of `n` sites of the emulator at `url`, `p` at a time, its journal appended to
 * `journal`; with `logins`, each site's calls carry its own login.
 */
export async function poolRelease(url, n, p, journal, logins = false) {
  // Each site's headers made once, before the first call, as a client would hold them.
  const own = new Map();
  if (logins)
    for (let i = 1; i <= n; i++) {
      const site = `site-${String(i).padStart(4, '0')}`;
      const { username, password } = siteLogin(site);
      own.set(site, { ...headers, authorization: basic(username, password) });
    }
  const siteHeaders = (site) => own.get(site) ?? headers;
  const agent = new Agent({ connections: p });
  const fd = openSync(journal, 'a');
  const call = async (site, method, path, body) => {
    if (method !== 'GET') {
      writeSync(fd, `${JSON.stringify({ site, method, path })}\n`);
      await sync(fd);
    }
    const res = await request(`${url}/sites/${site}${path}`, {
      method,
      headers: siteHeaders(site),
      body: body && JSON.stringify(body),
      dispatcher: agent,
    });
    await res.body.json();
    if (res.statusCode !== 200) throw new Error(`${method} ${path}: HTTP ${res.statusCode}`);
  };
  // Step by step over the sites, as the pipeline's matrices run.
  const steps = [
    (s) => call(s, 'GET', '/api/monitoring/v1/alerts'),
    (s) => call(s, 'POST', '/api/devops/v1/update/vfs', { ...target, files: [1001] }),
    async (s) => {
      await call(s, 'GET', '/api/monitoring/v1/engines');
      await call(s, 'POST', '/api/devops/v1/update/system', target);
    },
  ];
  for (const step of steps) {
    let next = 0;
    const worker = async () => {
      while (next < n) await step(`site-${String(++next).padStart(4, '0')}`);
    };
    await Promise.all(Array.from({ length: p }, worker));
  }
  closeSync(fd);
  await agent.close();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [url, n, p, journal] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4]), process.argv[5]];
  await poolRelease(url, n, p, journal, process.argv[6] === 'logins');
}
