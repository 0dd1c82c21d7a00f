// A store is probed at first use: a create-only write of a key that exists must be refused. A
// store that accepts it (an S3 server that ignores `If-None-Match`, a file system without O_EXCL)
// would let two runners both take a lease: it is refused, naming the store, before anything is
// sent to the API.
import { randomUUID } from 'node:crypto';
import { StoreError, type RunStore } from './store.ts';

export async function probeStore(store: RunStore, now: () => number): Promise<void> {
  const key = `probes/${now()}-${randomUUID()}`;
  const body = Buffer.from(JSON.stringify({ probe: true, at: now() }));
  if (!(await store.create(key, body)))
    throw new StoreError('STORE_REFUSED', `${store.url}: the probe key ${key} existed before it was written`, {
      hint: 'check that nothing else writes under probes/ in this store',
    });
  if (await store.create(key, Buffer.from('{"probe":"again"}'))) {
    throw new StoreError(
      'STORE_REFUSED',
      `${store.url} accepted a create-only write of a key that exists: it ignores conditional writes, so two runners could both take a lease; nothing was sent`,
      {
        hint: 'use a store that honours If-None-Match: * (AWS S3, Cloudflare R2, MinIO, Ceph RGW with its RADOS backend) or a directory on a file system with O_EXCL (not an old NFS)',
      },
    );
  }
}
