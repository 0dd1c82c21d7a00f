// The release workload (alerts, clear, sync, vfs, system update x2) three ways, alternating in
// one run against one emulator process: `enginectl run bench/peers/release.yml`, the same calls
// from bash + curl (bench/peers/release.sh) and from Python with requests.Session
// (bench/peers/release.py); Ansible's `uri` only when ansible-playbook is installed. Targets
// (issue 18): faster than Python, within 2x of bash + curl.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { emulatorProcess, ADMIN, CLI, NODE, median, ms, pairedRatio, peakRow, ratio, timed } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);

export const has = (cmd, args = ['--version']) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
export const hasRequests = () => has('python3', ['-c', 'import requests']);

export async function run() {
  const emulator = await emulatorProcess();
  const env = { ENGINE_URL: emulator.url, ...ADMIN };
  const cases = {
    enginectl: [NODE, [CLI, 'run', 'bench/peers/release.yml']],
    // For scale: the single executable (npm run build:exe), which starts from a snapshot.
    ...(existsSync('dist/enginectl')
      ? { 'enginectl (SEA)': ['dist/enginectl', ['run', 'bench/peers/release.yml']] }
      : {}),
    'bash + curl': ['bash', ['bench/peers/release.sh', emulator.url]],
    ...(hasRequests() ? { 'Python requests': ['python3', ['bench/peers/release.py', emulator.url]] } : {}),
  };
  const t = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  let peak;
  try {
    for (let i = 0; i < RUNS; i++)
      for (const [name, [cmd, args]] of Object.entries(cases)) t[name].push(timed(cmd, args, env));
    peak = await peakRow('release', {
      enginectl: [...cases.enginectl, env],
      ...(cases['Python requests'] ? { 'Python requests': [...cases['Python requests'], env] } : {}),
    });
  } finally {
    await emulator.stop();
  }
  const c = pairedRatio(t.enginectl, t['bash + curl']);
  const p = t['Python requests'] ? pairedRatio(t.enginectl, t['Python requests']) : undefined;
  return [
    ...Object.entries(t).map(([name, times]) => ({
      name: `release (6 calls): ${name}`,
      figure: ms(median(times)),
      target: '',
      holds: undefined,
    })),
    {
      name: 'release: enginectl / Python requests',
      figure: p === undefined ? 'python3 with requests not installed' : ratio(p),
      target: '< 1x',
      holds: p === undefined ? undefined : p < 1,
    },
    { name: 'release: enginectl / bash + curl', figure: ratio(c), target: '<= 2x', holds: c <= 2 },
    peak,
  ];
}
