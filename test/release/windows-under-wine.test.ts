// The Windows build of the CLI run under Wine, as far as Wine allows. Debian's Wine 8 cannot start
// Node 24's Windows runtime, the one the published executable holds (V8 cannot reserve its code
// pointer table: SegmentedTable::InitializeTable), so the published file is run on the windows
// runner by release.yml, and here the same CLI is built by the same code (release/executable.mjs:
// one SEA blob, the runtime's signature removed, the blob injected) into Node 22's Windows
// runtime, which Wine runs, and passes the same smoke test: --version, a broken file at its line,
// plan, a run against an emulator process (Windows client, Windows server), the demo.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../helpers/action.ts';
import { RELEASE_CACHE, releaseModules } from '../helpers/release.ts';

test(
  'the CLI in a Windows runtime passes the smoke test under Wine (Node 22: Wine cannot start Node 24)',
  { timeout: 600_000 },
  async () => {
    const runtimes = (JSON.parse(readFileSync(join(ROOT, 'release/runtimes.json'), 'utf8')) as { wine: unknown }).wine;
    const { runtimeBinary, seaBlob, inject } = await releaseModules();
    const work = mkdtempSync(join(tmpdir(), 'enginectl-wine-'));
    const blob = await seaBlob(runtimeBinary(runtimes, 'linux-x64', RELEASE_CACHE, work), work);
    const exe = inject(runtimeBinary(runtimes, 'windows-x64', RELEASE_CACHE, work), blob, join(work, 'enginectl.exe'), {
      windows: true,
    });
    const env = {
      ...process.env,
      WINEPREFIX: join(work, 'wine'),
      WINEDEBUG: '-all',
      // A fresh Wine prefix says it is Windows 7, below Node's floor; Node runs on it all the same.
      NODE_SKIP_PLATFORM_CHECK: '1',
    };
    // The prefix made first: its creation talks on stderr, which --version's check would read.
    assert.equal(spawnSync('wine', ['wineboot', '--init'], { env, stdio: 'ignore' }).status, 0, 'wineboot');
    const r = spawnSync('bash', ['release/smoke.sh', exe, 'wine'], { cwd: ROOT, encoding: 'utf8', env });
    spawnSync('wineserver', ['-k'], { env });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /--version, a broken file, plan, a run against an emulator process, the demo: ok/);
  },
);
