// Memory: the peak resident set of `enginectl run` (the CLI process alone; the server is another
// process) for a 500-instance matrix, and for an update whose report is 50 MB with every report
// written. Targets: matrix <= 150 MiB; the 50 MB report within twice its size over the same run
// with a small report (issue 29), its summary < 1 MiB.
import { statSync } from 'node:fs';
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { emulatorProcess, ADMIN, CLI, NODE, matrixPipeline, peakRss, tempDir, writeFile } from './lib.mjs';

const REPORT_MB = 50;

/** A server that answers every vfs update with a 50 MB report, as a chatty real one might. */
export async function bigReportServer(mb = REPORT_MB) {
  const line = '| /reports/sales/summary.rpt | updated | 3 | checksum 9f2c1e | 2026-11-22T12:00:00Z |\n';
  const report = `# Update of PROD\n\n| file | action | version | note | at |\n|---|---|---|---|---|\n${line.repeat(Math.ceil((mb * 1024 * 1024) / line.length))}`;
  const body = JSON.stringify({
    success: true,
    clientVersion: '2026.11',
    serverVersion: '26.11.0',
    versions: [],
    report,
    messages: [],
    errors: [],
    warnings: [],
    inserts: 0,
    updates: 1,
    deletes: 0,
  });
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    size: Buffer.byteLength(report),
    stop: () => new Promise((r) => server.close(r)),
  };
}

export async function run() {
  const dir = tempDir('memory');
  const matrix = writeFile(dir, 'wide.yml', matrixPipeline(500, 32));
  const emulator = await emulatorProcess();
  let wide;
  try {
    wide = await peakRss(
      NODE,
      [CLI, 'run', matrix, '--report-json', join(dir, 'w.json'), '--summary', join(dir, 'w.md')],
      { ENGINE_URL: emulator.url, ...ADMIN },
    );
  } finally {
    await emulator.stop();
  }

  const small = await bigReportServer(0.01);
  const update = writeFile(
    dir,
    'big.yml',
    'version: 1\ntargets:\n  prod: { server: prod-db.example.com, database: PROD, token: prod-token }\nsteps:\n  - uses: update/vfs\n    with: { target: prod, files: [1001] }\n',
  );
  let peak;
  let baseline;
  const reports = [
    '--report-json',
    join(dir, 'b.json'),
    '--junit',
    join(dir, 'b.xml'),
    '--summary',
    join(dir, 'b.md'),
    '--html',
    join(dir, 'b.html'),
  ];
  try {
    baseline = await peakRss(NODE, [CLI, 'run', update, ...reports], { ENGINE_URL: small.url, ...ADMIN });
  } finally {
    await small.stop();
  }
  const big = await bigReportServer();
  let journaled;
  try {
    peak = await peakRss(NODE, [CLI, 'run', update, ...reports], { ENGINE_URL: big.url, ...ADMIN });
    journaled = await peakRss(NODE, [CLI, 'run', update, ...reports, '--journal', join(dir, 'b.journal')], {
      ENGINE_URL: big.url,
      ...ADMIN,
    });
  } finally {
    await big.stop();
  }
  const journal = statSync(join(dir, 'b.journal')).size / 2 ** 20;
  const sizeMiB = big.size / 2 ** 20;
  const limit = baseline + 2 * sizeMiB;
  const summary = statSync(join(dir, 'b.md')).size;
  return [
    {
      name: 'memory: peak RSS, 500-instance matrix (max-parallel 32)',
      figure: `${wide.toFixed(0)} MiB`,
      target: '<= 150 MiB',
      holds: wide <= 150,
    },
    {
      name: `memory: peak RSS, an update with a ${sizeMiB.toFixed(0)} MiB report, every report written`,
      figure: `${peak.toFixed(0)} MiB (a small report: ${baseline.toFixed(0)} MiB)`,
      target: `<= ${limit.toFixed(0)} MiB (+ 2 x the report)`,
      holds: peak <= limit,
    },
    {
      name: `memory: the same update with --journal (the report written once: ${journal.toFixed(0)} MiB of journal)`,
      figure: `${journaled.toFixed(0)} MiB`,
      target: 'reported',
      holds: undefined,
    },
    {
      name: 'memory: its job summary',
      figure: `${(summary / 1024).toFixed(0)} KiB`,
      target: '< 1024 KiB',
      holds: summary < 1024 * 1024,
    },
  ];
}
