// An include reads only from inside the pipeline's repository (the git work tree holding it, or
// its directory outside one): absolute paths, `../` out of it, links out of it, /proc, FIFOs,
// files over 1 MiB and non-UTF-8 files are refused at the include's line, exit 2, and nothing of
// what such a file holds is printed (validate is what untrusted pull requests run).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const SECRET = 'TOKEN=s3cr3t-marker-7731';
const INVENTORY = 'targets:\n  prod: { server: prod-db.example.com, database: PROD, token: x }\n';

function repo() {
  const top = mkdtempSync(join(tmpdir(), 'enginectl-include-'));
  writeFileSync(join(top, 'outside.yml'), `vars:\n  leaked: "${SECRET}"\n`);
  const root = join(top, 'repo');
  mkdirSync(join(root, '.git'), { recursive: true });
  mkdirSync(join(root, 'pipelines'));
  mkdirSync(join(root, 'inventory'));
  writeFileSync(join(root, 'inventory', 'prod.yml'), INVENTORY);
  const pipeline = (include: string) => {
    const file = join(root, 'pipelines', 'release.yml');
    writeFileSync(
      file,
      `version: 1\ninclude:\n  - ${JSON.stringify(include)}\nsteps:\n  - uses: transaction-log/clear\n`,
    );
    return file;
  };
  return { top, root, pipeline };
}

test("an include inside the git work tree is read, also from a directory above the pipeline's", async () => {
  const r = repo();
  const ok = await runCli(['validate', r.pipeline('../inventory/prod.yml')]);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
});

test(
  'includes outside the repository, of /proc, of a FIFO, of a 2 MiB or non-UTF-8 file are refused at their line, without their content',
  { timeout: 60_000 },
  async () => {
    const r = repo();
    symlinkSync(join(r.top, 'outside.yml'), join(r.root, 'inventory', 'link.yml'));
    execFileSync('mkfifo', [join(r.root, 'inventory', 'fifo.yml')]);
    writeFileSync(join(r.root, 'inventory', 'big.yml'), `vars:\n  big: "${'x'.repeat(2 * 1024 * 1024)}"\n`);
    writeFileSync(join(r.root, 'inventory', 'latin1.yml'), Buffer.from('vars:\n  name: "caf\xe9"\n', 'latin1'));
    const cases: [string, RegExp][] = [
      ['/proc/self/environ', /cannot read it \(an absolute path\)/],
      [join(r.top, 'outside.yml'), /cannot read it \(an absolute path\)/],
      ['../../outside.yml', /cannot read it \(it is outside the pipeline's repository/],
      ['../inventory/link.yml', /cannot read it \(it is outside the pipeline's repository/],
      ['../inventory/fifo.yml', /cannot read it \(inventory\/fifo\.yml is not a regular file/],
      [
        '../inventory/big.yml',
        /cannot read it \(the file is \d+ bytes; inventories are limited to 1048576 bytes \(1 MiB\)/,
      ],
      ['../inventory/latin1.yml', /cannot read it \(the file is not valid UTF-8\)/],
    ];
    for (const [include, message] of cases) {
      const file = r.pipeline(include);
      const v = await runCli(['validate', file], { env: { SECRET_IN_ENV: SECRET } });
      assert.equal(v.code, 2, `${include}: ${v.stdout}${v.stderr}`);
      assert.match(
        v.stderr,
        new RegExp(`release\\.yml:3:5 include ${include.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: ${message.source}`),
        include,
      );
      assert.doesNotMatch(
        v.stdout + v.stderr,
        /s3cr3t-marker|xxxxxxxxxx|caf/,
        `${include}: nothing of the file is shown`,
      );
    }
  },
);
