// A store URL with credentials and a leading blank (a CI variable written
// `ENGINECTL_STORE: " s3://KEY:SECRET@bucket/prefix"`, a copied line). Before, it was read as a
// directory path, not refused as a URL with credentials: the refusal printed the whole path,
// secret access key and all. It is read as the URL it is, and refused as such.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const PIECES = [SECRET, ...SECRET.split('/').filter((p) => p.length > 6)];
const URLS = [
  ` s3://AKIAIOSFODNN7EXAMPLE:${SECRET}@bucket/prefix`,
  `\ts3://AKIAIOSFODNN7EXAMPLE:${SECRET}@bucket/prefix`,
];

test('a store URL with credentials and a leading blank prints none of them', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'enginectl-probe-store-')), 'p.yml');
  writeFileSync(file, 'version: 1\nsteps:\n  - uses: transaction-log/clear\n');
  const leaks: string[] = [];
  for (const url of URLS)
    for (const [args, env] of [
      [['runs', '--store', url], {}],
      [['lease', 'status', 'prod', '--store', url], {}],
      [['run', file, '--emulator'], { ENGINECTL_STORE: url }],
    ] as [string[], Record<string, string>][]) {
      const r = await runCli(args, { env });
      const text = r.stdout + r.stderr;
      if (PIECES.some((p) => text.includes(p)))
        leaks.push(`${args[0]} ${JSON.stringify(url.slice(0, 3))}: ${text.split('\n')[0]}`);
    }
  assert.deepEqual(leaks, []);
});
