// A sharded run's manifest as a directory store holds it, read by a test.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Manifest } from '../../src/shard/manifest.ts';

export const readManifestFile = (store: string, run: string) =>
  Manifest.parse(JSON.parse(readFileSync(join(store, 'shards', run, 'manifest'), 'utf8')));
