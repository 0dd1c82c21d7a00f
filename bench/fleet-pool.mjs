// The floor of a journaled fleet release: one Node process, one undici agent, and per site the
// calls enginectl makes (a GET of its alerts, a vfs update, a GET of its Engines, which a journaled
// run reads before a system update so that verify can decide it, the system update), `P` sites at a time,
// each write preceded by a line appended to a file and fdatasync'ed, as a fair journal would.
// `node bench/fleet-pool.mjs URL SITES P JOURNAL`; bench/fleet-warm.ts imports poolRelease and
// makes it again in one process.
import { Buffer } from 'node:buffer';
import { closeSync, fdatasync, openSync, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import { Agent, request } from 'undici';

const sync = promisify(fdatasync);
const headers = {
  authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}`,
  'content-type': 'application/json',
  accept: 'application/json',
};
const target = { targetDBName: 'PROD', targetServer: 'prod-db.example.com', targetAuthToken: 'prod-token' };

/** The release of `n` sites of the emulator at `url`, `p` at a time, its journal appended to `journal`. */
export async function poolRelease(url, n, p, journal) {
  const agent = new Agent({ connections: p });
  const fd = openSync(journal, 'a');
  const call = async (site, method, path, body) => {
    if (method !== 'GET') {
      writeSync(fd, `${JSON.stringify({ site, method, path })}\n`);
      await sync(fd);
    }
    const res = await request(`${url}/sites/${site}${path}`, {
      method,
      headers,
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
  await poolRelease(url, n, p, journal);
}
