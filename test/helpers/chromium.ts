// The HTML report in a real browser: headless Chromium (Debian's; .ci/run installs it), no
// network, a page written to a directory of its own, then either its DOM as Chromium parsed it or
// a screenshot of its first viewport rendered with JavaScript off.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function chromium(): string | undefined {
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

/** A guard against a hung browser, not a bound on how fast a page opens (bench/reports.mjs measures that). */
const HUNG_MS = 300_000;

export function browse(html: string, mode: 'screenshot' | 'dump-dom'): { png?: Buffer; dom?: string; dir: string } {
  const bin = chromium();
  if (!bin) assert.fail('Chromium is missing: install Debian chromium (.ci/run does)');
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-html-'));
  writeFileSync(join(dir, 'report.html'), html);
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--no-first-run',
    '--disable-dev-shm-usage',
    `--user-data-dir=${join(dir, 'profile')}`,
  ];
  if (mode === 'screenshot') {
    // Rendered with JavaScript off: the report must be readable without it.
    execFileSync(
      bin,
      [
        ...args,
        '--disable-javascript',
        `--screenshot=${join(dir, 'report.png')}`,
        '--window-size=1280,1600',
        `file://${join(dir, 'report.html')}`,
      ],
      { stdio: 'pipe', timeout: HUNG_MS },
    );
    return { png: readFileSync(join(dir, 'report.png')), dir };
  }
  const dom = execFileSync(bin, [...args, '--dump-dom', `file://${join(dir, 'report.html')}`], {
    stdio: 'pipe',
    timeout: HUNG_MS,
    maxBuffer: 256 * 1024 * 1024,
  }).toString();
  return { dom, dir };
}
