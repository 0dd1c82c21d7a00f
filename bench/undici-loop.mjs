// The floor of per-step overhead: one Node process, one undici keep-alive agent, N sequential
// vfs-update POSTs (start-up included). `node bench/undici-loop.mjs URL N`.
import { Buffer } from 'node:buffer';
import { Agent, request } from 'undici';

const [url, n] = [process.argv[2], Number(process.argv[3])];
const agent = new Agent({ keepAliveTimeout: 4_000 });
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
for (let i = 0; i < n; i++) {
  const res = await request(`${url}/api/devops/v1/update/vfs`, { method: 'POST', headers, body, dispatcher: agent });
  const result = await res.body.json();
  if (res.statusCode !== 200 || !result.success) throw new Error(`HTTP ${res.statusCode}`);
}
await agent.close();
