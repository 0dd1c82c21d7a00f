// A directory store whose file system fails a call says what to check by the error's code: a full
// file system (ENOSPC, EDQUOT) is not "check the directory is mounted and writable", nor is a
// read-only mount (EROFS) or an I/O error (EIO). Through the store's file system seam, on a real
// directory (the same store a run's --store file:///PATH opens).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { DirectoryStore } from '../../src/store/directory.ts';
import { StoreError } from '../../src/store/store.ts';
import { rejection } from '../helpers/emulator.ts';

const failing = (code: string) => Object.assign(new Error(`${code}: the file system failed`), { code });

/** A directory store whose writes (or reads) fail with `code`. */
function storeFailing(code: string, what: 'write' | 'read') {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-fault-hints-'));
  const seam = {
    ...fs,
    ...(what === 'write'
      ? {
          writeFile: ((_fd: unknown, _body: unknown, done: fs.NoParamCallback) =>
            done(failing(code))) as unknown as typeof fs.writeFile,
        }
      : {
          openSync: (() => {
            throw failing(code);
          }) as unknown as typeof fs.openSync,
          open: ((_path: unknown, _flags: unknown, done: (e: Error) => void) =>
            done(failing(code))) as unknown as typeof fs.open,
        }),
  } as typeof fs;
  return new DirectoryStore(pathToFileURL(dir).href, seam);
}

const cases = [
  { code: 'ENOSPC', what: 'write', hint: /file system is full .*: free space on it/ },
  { code: 'EDQUOT', what: 'write', hint: /quota there is spent/ },
  { code: 'EROFS', what: 'write', hint: /mounted read-only: mount it read-write/ },
  { code: 'EIO', what: 'write', hint: /failed the call \(EIO/ },
  { code: 'EIO', what: 'read', hint: /failed the call \(EIO/ },
] as const;

for (const c of cases)
  test(`a directory store whose file system fails a ${c.what} with ${c.code} says what to check for it`, async () => {
    const store = storeFailing(c.code, c.what);
    const error = await rejection(
      c.what === 'write' ? store.create('leases/L/00000001', Buffer.from('{}')) : store.get('leases/L/00000001'),
    );
    assert.ok(error instanceof StoreError, String(error));
    assert.equal(error.code, 'STORE_FAILED');
    assert.match(error.message, new RegExp(`cannot ${c.what} leases/L/00000001 \\(${c.code}\\)`));
    assert.match(error.hint ?? '', c.hint);
    assert.doesNotMatch(error.hint ?? '', /mounted and writable/);
  });
