// A sharded run planned over more shards than its fleet has sites: planned as asked, and said in a
// line. With static assignment a shard no site hashes to owns none: its CI job starts and does
// nothing. In a queue every worker claims the next site of its wave: past the sites, at least that
// many workers find none to claim (one worker may claim several, so more may find none).
import { shardOf, type Manifest } from './manifest.ts';

/** The line `enginectl shard` says of a run planned over more shards than sites; undefined when it has no more. */
export function idleShards(manifest: Pick<Manifest, 'waves' | 'shards' | 'assign' | 'over'>): string | undefined {
  const sites = manifest.waves.flat();
  const { shards } = manifest;
  if (shards <= sites.length) return undefined;
  const fleet = `${sites.length} ${manifest.over}(s)`;
  const fewer = `--shards ${sites.length} would do`;
  if (manifest.assign === 'queue')
    return `at least ${shards - sites.length} of the ${shards} workers will find no ${manifest.over} to claim (${fleet}, queue assignment: each claims the next of its wave); ${fewer}`;
  const idle = shards - new Set(sites.map((site) => shardOf(site, shards))).size;
  return `${idle} of the ${shards} shards own no ${manifest.over} (${fleet}, static assignment: no more than ${sites.length} can own one): their jobs start and do nothing; ${fewer}`;
}
