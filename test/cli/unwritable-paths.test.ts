// A report, journal, dotenv or store path where nothing can be written is refused before anything
// runs, or fails fast, whoever runs it: as root, access(W_OK) says yes under /proc and /sys (the
// reports then failed after every write was sent), and Node's recursive mkdir of /proc/nope spins
// forever at full CPU, deaf to SIGTERM. The CLI runs as a process (a hang is killed, not waited on).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cleanEnv } from '../helpers/cli.ts';

const BIN = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));
const DEMO = fileURLToPath(new URL('../../pipelines/demo.yml', import.meta.url));

/** The CLI from the source as a process; killed (code null) if it has not ended a minute on. */
function cli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, ...args], {
    env: cleanEnv(),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const hung = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) => child.on('close', (code) => (clearTimeout(hung), resolve({ code, stderr }))));
}

test(
  'report paths under /proc and /sys, and under a directory of /proc that cannot be made, are refused before anything runs (BAD_REPORT_PATH, exit 2)',
  { skip: !existsSync('/proc/self') },
  async () => {
    for (const path of ['/proc/x.json', '/sys/x.json', '/proc/nope/x.json']) {
      const r = await cli(['run', DEMO, '--emulator', '--report-json', path]);
      assert.equal(r.code, 2, `${path}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`--report-json ${path}: cannot write there \\((ENOENT|EACCES)\\)`));
    }
  },
);

test(
  'a journal, a dotenv file or a directory store under a directory of /proc that cannot be made fails at once, naming it, never spinning',
  { skip: !existsSync('/proc/self') },
  async () => {
    const journal = await cli(['run', DEMO, '--emulator', '--journal', '/proc/nope/j.jsonl']);
    assert.equal(journal.code, 2, journal.stderr);
    assert.match(journal.stderr, /journal \/proc\/nope\/j\.jsonl: cannot create its directory \/proc\/nope \(ENOENT\)/);
    const dotenv = await cli(['run', DEMO, '--emulator', '--dotenv', '/proc/nope/x.env']);
    assert.equal(dotenv.code, 1, dotenv.stderr);
    assert.match(dotenv.stderr, /--dotenv \/proc\/nope\/x\.env: ENOENT/);
    const store = await cli(['run', DEMO, '--emulator', '--store', 'file:///proc/nope/store']);
    assert.equal(store.code, 1, store.stderr);
    assert.match(store.stderr, /file:\/\/\/proc\/nope\/store: the store's directory \/proc\/nope\/store is not there/);
  },
);
