// The floor of fan-out: one Node process, one undici agent, N vfs-update POSTs at most P at a
// time (start-up included). `node bench/undici-pool.mjs URL N P`.
import { Buffer } from 'node:buffer';
import { Agent, request } from 'undici';

const [url, n, p] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const agent = new Agent({ connections: p });
const headers = {
  authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}`,
  'content-type': 'application/json',
  accept: 'application/json',
};
const body = JSON.stringify({
  targetDBName: 'PROD',
  targetServer: 'prod-db.example.com',
  targetAuthToken: 'prod-token',
  files: [1001],
});
let next = 0;
const worker = async () => {
  while (next < n) {
    next++;
    const res = await request(`${url}/api/devops/v1/update/vfs`, { method: 'POST', headers, body, dispatcher: agent });
    const result = await res.body.json();
    if (res.statusCode !== 200 || !result.success) throw new Error(`HTTP ${res.statusCode}`);
  }
};
await Promise.all(Array.from({ length: p }, worker));
await agent.close();
