// A writer of a directory store killed mid-write, in its own process (forked with tsx): it prepares
// a body for the key argv[3] (the body written and synced in the store's `.tmp/`) and, when argv[4]
// is `linked`, creates the key; then it is killed (SIGKILL) before it releases the body, as a
// preempted runner is: its temporary file is what it leaves (test/store/directory-leftovers.test.ts).
import { DirectoryStore } from '../../src/store/directory.ts';

const [url, key, mode] = process.argv.slice(2) as [string, string, 'prepared' | 'linked'];
const prepared = await new DirectoryStore(url).prepare(key, Buffer.from(`body of ${key}`));
if (mode === 'linked') await prepared.create(key);
process.kill(process.pid, 'SIGKILL');
