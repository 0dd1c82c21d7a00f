// Every report of a rollout over 1,000 and 10,000 sites (three steps a site, three waves, 21
// failed or in doubt at 10,000): the model built from the runner's result, then the HTML, the
// Markdown summary, JSON and JUnit rendered, each timed in CPU ms (the least of BENCH_RUNS_REPORTS
// rounds, the sizes alternating, in one process after a warm-up round; ten runs of 1,000 sites a
// round, the mean kept: bench/reports-render.ts says why) with its bytes, and the ratio of 10,000 to 1,000 sites: linear is
// 10x (target <= 10.5x, the issue's for a fleet's run). The least, not the median: on a shared
// machine other processes only ever add to a time (the medians moved 7-57x between runs). Then
// the HTML opened in headless Chromium (--dump-dom, when Chromium is installed) at each size,
// against an empty page: "opens in seconds" is this figure, never a test's assertion.
// The renderers are run from the source (node --import tsx bench/reports-render.ts), in process:
// what is timed is the rendering, not a process start or a 29 MB JSON read; dist/ is rebuilt only
// when a release is made.
import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { NODE, ROOT, median, ms, ratio, tempDir, timed } from './lib.mjs';

const SIZES = [1000, 10000];
const RUNS = Number(process.env.BENCH_RUNS_REPORTS ?? 5);
const LINEAR = 10.5;

const cpu = (v) => `${v.toFixed(v < 10 ? 1 : 0)} ms CPU`;
const mb = (bytes) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(2)} MB` : `${(bytes / 1e3).toFixed(1)} kB`);

function chromium() {
  for (const bin of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      execFileSync(bin, ['--version'], { stdio: 'ignore' });
      return bin;
    } catch {
      /* next */
    }
  }
  return undefined;
}

export async function run() {
  const dir = tempDir('reports');
  const r = spawnSync(NODE, ['--import', 'tsx', 'bench/reports-render.ts', String(RUNS), dir, ...SIZES.map(String)], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`bench/reports-render.ts exited ${r.status}: ${r.stderr}`);
  const figures = JSON.parse(r.stdout);
  const [small, large] = SIZES.map((s) => figures[s]);
  const rows = ['model', 'html', 'markdown', 'json', 'junit'].map((name) => {
    const least = (a) => Math.min(...a);
    const times = least(large.ms[name]) / least(small.ms[name]);
    const bytes = large.bytes[name] === undefined ? '' : `; ${mb(large.bytes[name])} vs ${mb(small.bytes[name])}`;
    return {
      name: `reports: ${name === 'model' ? 'the report model' : name} of 10,000 sites vs 1,000 (rollout, 3 steps a site)`,
      figure: `${cpu(least(large.ms[name]))} vs ${cpu(least(small.ms[name]))}: ${ratio(times)}${bytes}`,
      target: `linear: <= ${LINEAR}x`,
      holds: times <= LINEAR,
    };
  });
  const bin = chromium();
  if (bin) {
    const open = (url, i) =>
      timed(bin, [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--no-first-run',
        '--disable-dev-shm-usage',
        '--disable-javascript',
        `--user-data-dir=${join(dir, `profile-${i}`)}`,
        '--dump-dom',
        url,
      ]);
    const t = { blank: [], small: [], large: [] };
    for (let i = 0; i < Math.min(RUNS, 3); i++) {
      t.blank.push(open('about:blank', i));
      t.small.push(open(`file://${join(dir, `${SIZES[0]}.html`)}`, i));
      t.large.push(open(`file://${join(dir, `${SIZES[1]}.html`)}`, i));
    }
    rows.push({
      name: 'reports: the HTML of 10,000 sites opened in headless Chromium (--dump-dom) vs 1,000 vs an empty page',
      figure: `${ms(median(t.large))} vs ${ms(median(t.small))} vs ${ms(median(t.blank))}`,
      target: 'reported (issue 48: opens in seconds)',
      holds: undefined,
    });
  }
  rmSync(dir, { recursive: true, force: true });
  return rows;
}
