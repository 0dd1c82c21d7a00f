// A server URL taken from a secret (`url: ${{ secrets.PROD_URL }}`) is named by every message as
// the URL parser spells it (no trailing slash, the host in lower case, no default port), not as
// the secret was written: each of those spellings is the secret too, masked in every channel and
// registered with the CI's own masking.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const pipeline = (url: string) => `version: 1
name: Secret server
servers:
  main: { url: "${url}", username: admin, password: "\${{ secrets.PW }}", allow-insecure-http: "\${{ env.ALLOW }}" }
steps:
  - id: eng
    uses: monitoring/engines
`;

/** A CONNECT proxy on 127.0.0.1 that sends every tunnel to `port` (the emulator), as another host would be reached. */
async function tunnelTo(t: TestContext, port: number): Promise<string> {
  const proxy = createServer();
  proxy.on('connect', (_req, socket) => {
    const upstream = connect(port, '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  t.after(() => {
    proxy.closeAllConnections();
    proxy.close();
  });
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

/** Runs the pipeline with the server's `url` (PROD_URL or PROD_HOST in `env`) and a wrong password (401), every report asked for; what each channel holds. */
async function runWith(url: string, env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-secret-url-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, pipeline(url));
  const reports = ['r.json', 'r.junit.xml', 'r.md', 'r.html'].map((f) => join(dir, f));
  const r = await runCli(
    ['run', file, '--ci', 'github', '--report-json', reports[0]!, '--junit', reports[1]!].concat([
      '--summary',
      reports[2]!,
      '--html',
      reports[3]!,
    ]),
    { env: { PW: 'wrong-password', ALLOW: 'false', ...env } },
  );
  const masks = r.stdout
    .split('\n')
    .filter((l) => l.startsWith('::add-mask::'))
    .map((l) => l.slice('::add-mask::'.length));
  const shown = r.stdout
    .split('\n')
    .filter((l) => !l.startsWith('::add-mask::'))
    .join('\n');
  const channels: Record<string, string> = { stdout: shown, stderr: r.stderr };
  for (const path of reports) channels[path] = readFileSync(path, 'utf8');
  return { r, masks, channels };
}

test('a server URL from a secret, spelt otherwise than the URL parser spells it (a trailing slash, upper case, a default port), is masked in every channel and every error reads ***', async (t) => {
  const { url } = await startEmulator(t);
  const proxy = { HTTP_PROXY: await tunnelTo(t, Number(new URL(url).port)), ALLOW: 'true' };
  const whole = '${{ secrets.PROD_URL }}';
  const cases: { url: string; env: Record<string, string>; hidden: string; shown: string; mask: string }[] = [
    // Loopback, its trailing slash: messages name http://127.0.0.1:PORT.
    { url: whole, env: { PROD_URL: `${url}/` }, hidden: url.slice('http://'.length), shown: '***', mask: url },
    // Another host through a proxy, in upper case, its default port: messages name http://prod-secret-host.example.
    {
      url: whole,
      env: { PROD_URL: 'http://Prod-Secret-Host.example:80/', ...proxy },
      hidden: 'prod-secret-host',
      shown: '***',
      mask: 'http://prod-secret-host.example',
    },
    // The secret is the host part only: the scheme, no secret, is shown.
    {
      url: 'http://${{ secrets.PROD_HOST }}',
      env: { PROD_HOST: 'Prod-Secret-Host.example:80', ...proxy },
      hidden: 'prod-secret-host',
      shown: 'http://***',
      mask: 'prod-secret-host.example',
    },
  ];
  for (const c of cases) {
    const { r, masks, channels } = await runWith(c.url, c.env);
    const given = JSON.stringify(c.env);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.ok(
      channels.stdout!.includes(`GET /api/monitoring/v1/engines on ${c.shown}: authentication failed (401)`),
      `${given}: ${channels.stdout}`,
    );
    for (const [channel, text] of Object.entries(channels)) {
      const at = text.toLowerCase().indexOf(c.hidden);
      assert.equal(at, -1, `${given}: ${channel} names the server: ${text.slice(Math.max(0, at - 60), at + 60)}`);
    }
    assert.ok(masks.includes(c.mask), `${given}: ::add-mask:: of ${c.mask}: ${masks.join(' ')}`);
  }
});

test('an error that stops a command before its first call names a server URL from a secret as ***: run and plan --live, refused over plain http:// or for white space', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-secret-url-refused-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, pipeline('${{ secrets.PROD_URL }}'));
  const cases = [
    {
      secret: 'http://Secret-Host.example/',
      refused: /refusing to send the user name and password over plain http:\/\/ to \*\*\*/,
    },
    { secret: 'https://secret-host.example/ x', refused: /the URL "\*\*\*" holds white space/ },
  ];
  for (const c of cases)
    for (const command of [
      ['run', file],
      ['plan', file, '--live'],
    ]) {
      const r = await runCli([...command, '--ci', 'github'], {
        env: { PROD_URL: c.secret, PW: 'a-password', ALLOW: 'false' },
      });
      const said = `${command[0]} with ${c.secret}: ${r.stdout}${r.stderr}`;
      assert.notEqual(r.code, 0, said);
      assert.match(r.stdout + r.stderr, c.refused, said);
      assert.doesNotMatch(r.stderr.toLowerCase(), /secret-host/, said);
      assert.doesNotMatch(r.stdout.replace(/^::add-mask::.*$/gm, '').toLowerCase(), /secret-host/, said);
    }
});
