// A store that refuses a request for this runner's clock (403 RequestTimeTooSkewed: the request's
// time is over 15 minutes from the store's) or for credentials that expired (400 ExpiredToken: a
// session token past its lifetime, mid-run) says that in its hint: not "check the credentials
// allow s3:GetObject...", which sends the operator to a policy that is fine. Ceph's RADOS Gateway
// behind a proxy that answers those errors (test/helpers/s3-proxy.ts); a run over it stops at the
// probe, before anything is sent to the API.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { startCeph } from '../helpers/ceph.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { proxyInFront, type ProxyAnswer } from '../helpers/s3-proxy.ts';
import { assertClean } from '../helpers/secrets.ts';

const ceph = await startCeph();
after(() => ceph.stop());

const error = (status: number, code: string, message: string): ProxyAnswer => ({
  status,
  body: `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message><RequestId>tx-proxy</RequestId></Error>`,
});

const cases = [
  {
    what: "403 RequestTimeTooSkewed (this runner's clock is off)",
    answer: error(
      403,
      'RequestTimeTooSkewed',
      'The difference between the request time and the current time is too large.',
    ),
    said: /HTTP 403 RequestTimeTooSkewed/,
    hint: /this runner's clock is more than 15 minutes from the store's: set it right \(NTP/,
  },
  {
    what: '400 ExpiredToken (the session credentials expired)',
    answer: error(400, 'ExpiredToken', 'The provided token has expired.'),
    said: /HTTP 400 ExpiredToken/,
    hint: /the credentials expired \(a session token past its lifetime\)/,
  },
];

for (const c of cases)
  test(`a store answering ${c.what} stops the run at the probe with a hint that says so, not a policy to check`, async (t) => {
    const proxy = await proxyInFront(
      t,
      ceph.endpoint,
      () => undefined,
      () => c.answer,
    );
    const { url, emulator } = await startEmulator(t);
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-store-clock-'));
    const file = join(dir, 'p.yml');
    writeFileSync(file, 'version: 1\nsteps:\n  - uses: transaction-log/clear\n');
    const r = await runCli(['run', file, '--store', ceph.storeUrl(`clock-${Date.now()}`, proxy)], {
      env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', ...ceph.env },
    });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, c.said);
    assert.match(r.stderr, c.hint);
    assert.doesNotMatch(r.stderr, /allow s3:GetObject/);
    assertClean('the store refused', r.stdout + r.stderr, [ceph.secretAccessKey]);
    assert.equal(emulator.requests.length, 0, 'nothing was sent to the API');
  });
