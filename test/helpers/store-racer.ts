// A runner racing for keys of a directory store, in its own process (forked with tsx): told
// { key, body } over IPC, it creates the key at once and answers { key, created }. Many of these
// racing on one directory are runners on one machine or one share (test/store/directory.test.ts).
import { DirectoryStore } from '../../src/store/directory.ts';

const store = new DirectoryStore(process.argv[2]!);
process.on('message', (m: { key: string; body: string }) => {
  store.create(m.key, Buffer.from(m.body)).then(
    (created) => process.send!({ key: m.key, created }),
    (error: Error) => process.send!({ key: m.key, error: error.message }),
  );
});
process.send!({ ready: true });
