// dist/cli.mjs compiles the CLI with a V8 code cache kept in the user's cache directory. The cache
// only ever makes a run faster: where it is kept, that a second run takes it as it is, and that a
// corrupt, unwritable or disabled cache changes nothing a user sees.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CACHED_COMMANDS, cacheDirectory, STALE_MS } from '../../src/cli/code-cache.ts';
import { COMMAND_NAMES } from '../../src/cli/run-command.ts';
import { runCli } from '../helpers/cli.ts';

const DEMO = fileURLToPath(new URL('../../pipelines/demo.yml', import.meta.url));
const VALID = `${DEMO}: valid (9 steps)\n`;
const temp = (name: string) => mkdtempSync(join(tmpdir(), `enginectl-cache-${name}-`));
const CACHE_FILE = new RegExp(`^cli-[0-9a-f]{16}-node${process.version.slice(1).replaceAll('.', '\\.')}-${process.arch}-validate\\.v8cache$`);

async function validate(env: Record<string, string>, cwd = temp('cwd')) {
  const r = await runCli(['validate', DEMO, '--emulator'], { env, cwd });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, VALID);
  assert.equal(r.stderr, '');
  return cwd;
}

test('the code cache is kept in the user cache directory (~/.cache/enginectl), never in the working directory', async () => {
  const home = temp('home');
  const cwd = await validate({ HOME: home });
  assert.deepEqual(readdirSync(cwd), [], 'nothing written where the command ran');
  const dir = join(home, '.cache', 'enginectl');
  const files = readdirSync(dir);
  assert.equal(files.length, 1, files.join(', '));
  assert.match(files[0]!, CACHE_FILE);
  assert.ok(statSync(join(dir, files[0]!)).size > 100_000, 'the compiled code is in it');
  assert.equal(statSync(dir).mode & 0o777, 0o700, 'a code cache is code: the directory is the user\'s alone');
  assert.equal(statSync(join(dir, files[0]!)).mode & 0o777, 0o600);
});

test('a second run takes the cache as it is (a cache V8 refused would be written again)', async () => {
  const dir = temp('second');
  await validate({ ENGINECTL_CACHE_DIR: dir });
  const [file] = readdirSync(dir);
  const first = statSync(join(dir, file!));
  const bytes = readFileSync(join(dir, file!));
  await validate({ ENGINECTL_CACHE_DIR: dir });
  const second = statSync(join(dir, file!));
  assert.equal(second.ino, first.ino, 'the file was not replaced');
  assert.ok(readFileSync(join(dir, file!)).equals(bytes));
  assert.deepEqual(readdirSync(dir), [file], 'no temporary file left behind');
});

test('a run that calls a server (V8 flags set for undici) takes its cache as it is too', async () => {
  const dir = temp('run');
  const run = async () => {
    const r = await runCli(['run', DEMO, '--emulator'], { env: { ENGINECTL_CACHE_DIR: dir } });
    assert.equal(r.code, 0, r.stderr);
  };
  await run();
  const [file] = readdirSync(dir);
  assert.match(file!, /-run\.v8cache$/);
  const first = statSync(join(dir, file!)).ino;
  await run();
  assert.equal(statSync(join(dir, file!)).ino, first, 'the cache was taken, not written again');
});

test('each command has its own cache (it holds what that command compiled); unknown words share one', async () => {
  const dir = temp('commands');
  await validate({ ENGINECTL_CACHE_DIR: dir });
  assert.equal((await runCli(['schema'], { env: { ENGINECTL_CACHE_DIR: dir } })).code, 0);
  assert.equal((await runCli(['--version'], { env: { ENGINECTL_CACHE_DIR: dir } })).code, 0);
  assert.equal((await runCli(['no-such-command'], { env: { ENGINECTL_CACHE_DIR: dir } })).code, 2);
  assert.deepEqual(readdirSync(dir).map((f) => /-(\w+)\.v8cache$/.exec(f)?.[1]).sort(), ['other', 'schema', 'validate']);
  assert.deepEqual([...CACHED_COMMANDS].sort(), [...COMMAND_NAMES].sort(), 'the loader knows every command');
});

test('a corrupt or truncated cache is ignored and replaced: the run is the same (V8 itself would abort on it)', async () => {
  for (const damage of [(b: Buffer) => b.fill(0x55, b.length >> 1, (b.length >> 1) + 64), (b: Buffer) => b.subarray(0, b.length >> 1), () => Buffer.from('not a cache')]) {
    const dir = temp('corrupt');
    await validate({ ENGINECTL_CACHE_DIR: dir });
    const [file] = readdirSync(dir);
    const path = join(dir, file!);
    const good = readFileSync(path);
    writeFileSync(path, damage(Buffer.from(good)));
    const damaged = readFileSync(path);
    await validate({ ENGINECTL_CACHE_DIR: dir });
    assert.ok(!readFileSync(path).equals(damaged), 'the damaged cache was written again');
    const replaced = statSync(path).ino;
    await validate({ ENGINECTL_CACHE_DIR: dir });
    assert.equal(statSync(path).ino, replaced, 'and the new one is taken');
  }
});

test('writing a cache removes those not written for 30 days and temporary files a killed run left; nothing else', async () => {
  const dir = temp('prune');
  const now = Date.now() / 1000;
  const old = (name: string, ageSeconds: number) => {
    writeFileSync(join(dir, name), 'x');
    utimesSync(join(dir, name), now - ageSeconds, now - ageSeconds);
  };
  old('cli-0123456789abcdef-node20.0.0-x64-run.v8cache', STALE_MS / 1000 + 3600);
  old('cli-0123456789abcdef-node20.0.0-x64-plan.v8cache', STALE_MS / 1000 - 3600);
  old('cli-0123456789abcdef-node20.0.0-x64-run.v8cache.4242.tmp', 2 * 24 * 3600);
  old('notes.txt', STALE_MS / 1000 + 3600);
  await validate({ ENGINECTL_CACHE_DIR: dir });
  const left = readdirSync(dir).sort();
  assert.deepEqual(left.filter((f) => !CACHE_FILE.test(f)), ['cli-0123456789abcdef-node20.0.0-x64-plan.v8cache', 'notes.txt']);
  assert.equal(left.filter((f) => CACHE_FILE.test(f)).length, 1, 'the new cache');
});

test('the cache holds compiled code only: no secret of the run that wrote it, in any encoding', async () => {
  const dir = temp('secrets');
  const secret = 'Zq9-cache-secret-7731';
  const r = await runCli(['run', DEMO, '--emulator'], { env: { ENGINECTL_CACHE_DIR: dir, PROD_TOKEN: secret, STAGING_TOKEN: `${secret}-staging` } });
  assert.notEqual(r.code, null, r.stderr);
  const [file] = readdirSync(dir);
  const bytes = readFileSync(join(dir, file!));
  assert.notEqual(bytes.indexOf('simulated clock'), -1, 'the text of the code that ran is in it (the search can find text)');
  for (const form of [secret, Buffer.from(secret).toString('base64'), encodeURIComponent(secret), Buffer.from(secret, 'utf16le').toString('latin1')]) {
    assert.equal(bytes.indexOf(form), -1, `the cache holds ${form}`);
  }
});

test('an unusable cache directory, or ENGINECTL_DISABLE_CACHE=1, only makes the run compile from source', async () => {
  const base = temp('unusable');
  writeFileSync(join(base, 'a-file'), 'x');
  await validate({ ENGINECTL_CACHE_DIR: join(base, 'a-file', 'cache') });
  assert.deepEqual(readdirSync(base), ['a-file']);
  const home = temp('disabled');
  await validate({ HOME: home, ENGINECTL_DISABLE_CACHE: '1' });
  assert.deepEqual(readdirSync(home), [], 'nothing written');
});

test('the cache directory follows each platform\'s convention; a relative XDG_CACHE_HOME is ignored', () => {
  const home = () => '/home/u';
  assert.equal(cacheDirectory({}, 'linux', home), '/home/u/.cache/enginectl');
  assert.equal(cacheDirectory({ XDG_CACHE_HOME: '/var/cache/u' }, 'linux', home), '/var/cache/u/enginectl');
  assert.equal(cacheDirectory({ XDG_CACHE_HOME: 'cache' }, 'linux', home), '/home/u/.cache/enginectl');
  assert.equal(cacheDirectory({}, 'darwin', () => '/Users/u'), '/Users/u/Library/Caches/enginectl');
  assert.equal(cacheDirectory({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'win32', home)?.replaceAll('/', '\\'), 'C:\\Users\\u\\AppData\\Local\\enginectl\\Cache');
  assert.equal(cacheDirectory({ ENGINECTL_CACHE_DIR: '/tmp/c' }, 'linux', home), '/tmp/c');
  assert.equal(cacheDirectory({ ENGINECTL_DISABLE_CACHE: '1', ENGINECTL_CACHE_DIR: '/tmp/c' }, 'linux', home), undefined);
  assert.equal(cacheDirectory({}, 'linux', () => ''), undefined, 'no home, no cache');
  assert.equal(cacheDirectory({}, 'linux', () => {
    throw new Error('no home');
  }), undefined);
});
