// A real S3 store for tests: Ceph's RADOS Gateway from Debian as a one-node cluster in a temporary
// directory (one monitor, one OSD with the in-memory object store, radosgw with the beast frontend),
// everything on 127.0.0.1 on free ports, with a user (access key and secret) and a bucket. Started
// once per test file and stopped by pid (radosgw, then the OSD, then the monitor). The facts it
// follows are in ../shared/notes/s3-store-for-tests.md; the packages come from the test tools
// (scripts/test-tools.mjs: radosgw, ceph-mon, ceph-osd).
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';

export interface Ceph {
  /** http://127.0.0.1:PORT, radosgw's S3 endpoint. */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The environment a store of this cluster needs: the user's keys. */
  env: Record<string, string>;
  /** s3://BUCKET/PREFIX?endpoint=... for a store under `prefix` in the bucket. */
  storeUrl(prefix: string, endpoint?: string): string;
  /** Milliseconds from the first command to the bucket, as measured on this machine. */
  startedInMs: number;
  /** Stops the daemons by pid (radosgw, OSD, monitor), each waited for, and removes the directory. */
  stop(): Promise<void>;
}

const DAEMONS = ['client.rgw', 'osd.0', 'mon.a'];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} failed: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}

/** Whether radosgw answers on the port: an S3 answer carries its request id (another server's does not). */
async function servesS3(port: number): Promise<boolean> {
  try {
    const answer = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(5_000) });
    await answer.arrayBuffer();
    return answer.headers.has('x-amz-request-id');
  } catch {
    return false;
  }
}

/**
 * A one-node cluster, started again from nothing (another directory, other ports) when the
 * monitor could not bind its port: a port free when it was chosen may be taken by the time the
 * monitor binds it (a connection or a server of a test running beside this one).
 */
export async function startCeph(bucket = 'enginectl-tests'): Promise<Ceph> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startCephOnce(bucket);
    } catch (error) {
      if (attempt === 3 || !/unable to bind/i.test((error as Error).message)) throw error;
    }
  }
}

async function startCephOnce(bucket: string): Promise<Ceph> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const missing = ['radosgw', 'ceph-mon', 'ceph-osd'].filter(
    (bin) => spawnSync('sh', ['-c', 'command -v "$1"', 'sh', bin]).status !== 0,
  );
  if (missing.length > 0)
    throw new Error(
      `the S3 store tests need Ceph's ${missing.join(', ')}: run node scripts/test-tools.mjs (npm test does), or apt-get install radosgw && apt-get install --no-install-recommends ceph-mon ceph-osd`,
    );
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'ceph-'));
  for (const sub of ['run', 'log', 'mon', 'osd/ceph-0', 'rgw']) mkdirSync(join(dir, sub), { recursive: true });
  const monPort = await freePort();
  const fsid = randomUUID();
  const conf = join(dir, 'ceph.conf');
  writeFileSync(
    conf,
    `[global]
fsid = ${fsid}
mon host = v2:127.0.0.1:${monPort}
mon initial members = a
auth cluster required = none
auth service required = none
auth client required = none
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon allow pool size one = true
mon warn on pool no redundancy = false
osd crush chooseleaf type = 0
ms bind ipv4 = true
ms bind ipv6 = false
ms bind msgr1 = false
run dir = ${dir}/run
log file = ${dir}/log/$name.log
pid file = ${dir}/run/$name.pid
admin socket = ${dir}/run/$name.asok
mon data = ${dir}/mon/$cluster-$id
osd data = ${dir}/osd/$cluster-$id
osd objectstore = memstore
memstore device bytes = 2147483648
keyring = ${dir}/keyring
[client.rgw]
# With no authentication the monitor offers only crc, and radosgw asks for secure by default.
ms mon client mode = crc
rgw exit timeout secs = 2
rgw data = ${dir}/rgw
`,
  );
  const pids = new Map<string, number>();
  const pidOf = (name: string): number | undefined => {
    try {
      return Number(readFileSync(join(dir, 'run', `${name}.pid`), 'utf8').trim()) || undefined;
    } catch {
      return undefined;
    }
  };
  // A test process that dies leaves no daemon behind.
  const killAll = () => {
    for (const pid of pids.values()) if (alive(pid)) process.kill(pid, 'SIGKILL');
  };
  process.once('exit', killAll);
  const logTail = (name: string) => {
    try {
      return readFileSync(join(dir, 'log', `${name}.log`), 'utf8')
        .split('\n')
        .slice(-15)
        .join('\n');
    } catch {
      return '(no log)';
    }
  };
  const daemon = async (name: string, command: string, args: string[]) => {
    await run(command, ['-c', conf, ...args]);
    // It forks into the background; its pid file is written soon after.
    for (;;) {
      const pid = pidOf(name);
      if (pid !== undefined) {
        pids.set(name, pid);
        return pid;
      }
      await pause(20);
    }
  };
  const stopOne = async (name: string) => {
    const pid = pids.get(name) ?? pidOf(name);
    if (pid === undefined || !alive(pid)) return;
    process.kill(pid, 'SIGTERM');
    while (alive(pid)) await pause(20);
  };
  const stop = async () => {
    process.removeListener('exit', killAll);
    // In this order, each waited for (about 2 s each): the OSD and the monitor stopped together take
    // longer, the OSD waiting on a monitor that left.
    for (const name of DAEMONS) await stopOne(name);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await run('monmaptool', [
      '--create',
      '--fsid',
      fsid,
      '--addv',
      'a',
      `[v2:127.0.0.1:${monPort}]`,
      join(dir, 'monmap'),
    ]);
    await run('ceph-authtool', [
      '--create-keyring',
      join(dir, 'keyring'),
      '--gen-key',
      '-n',
      'mon.',
      '--cap',
      'mon',
      'allow *',
    ]);
    await run('ceph-mon', [
      '-c',
      conf,
      '--mkfs',
      '-i',
      'a',
      '--monmap',
      join(dir, 'monmap'),
      '--keyring',
      join(dir, 'keyring'),
    ]);
    await daemon('mon.a', 'ceph-mon', ['-i', 'a']);
    await run('ceph', ['-c', conf, 'osd', 'pool', 'ls']);
    const osdUuid = randomUUID();
    const id = (await run('ceph', ['-c', conf, 'osd', 'new', osdUuid])).trim();
    await run('ceph-osd', ['-c', conf, '-i', id, '--mkfs', '--osd-uuid', osdUuid]);
    await daemon(`osd.${id}`, 'ceph-osd', ['-i', id]);
    // radosgw creates its pools, then binds its port: a port free when it was chosen may be taken by
    // then (a server of a test running beside this one), so radosgw is started again on another
    // until it serves, and what answers on the port is checked to be radosgw.
    let rgwPort = 0;
    for (let attempt = 1; rgwPort === 0; attempt++) {
      const port = await freePort();
      rmSync(join(dir, 'run', 'client.rgw.pid'), { force: true });
      const rgw = await daemon('client.rgw', 'radosgw', [
        '-n',
        'client.rgw',
        '--rgw-frontends',
        `beast endpoint=127.0.0.1:${port}`,
      ]);
      for (;;) {
        if (logTail('client.rgw').includes(`failed to bind address 127.0.0.1:${port}`)) break;
        if (!alive(rgw)) throw new Error(`radosgw exited before serving:\n${logTail('client.rgw')}`);
        if (await servesS3(port)) {
          rgwPort = port;
          break;
        }
        await pause(100);
      }
      if (rgwPort !== 0) break;
      await stopOne('client.rgw');
      if (attempt === 5) throw new Error(`radosgw found no free port in ${attempt} tries`);
    }
    const accessKeyId = `ENGINECTL${randomBytes(6).toString('hex').toUpperCase()}`;
    const secretAccessKey = randomBytes(30).toString('base64url');
    await run('radosgw-admin', [
      '-c',
      conf,
      '-n',
      'client.rgw',
      'user',
      'create',
      '--uid',
      'enginectl-tests',
      '--display-name',
      'enginectl tests',
      '--access-key',
      accessKeyId,
      '--secret',
      secretAccessKey,
    ]);
    const endpoint = `http://127.0.0.1:${rgwPort}`;
    const client = new S3Client({
      endpoint,
      forcePathStyle: true,
      region: 'us-east-1',
      credentials: { accessKeyId, secretAccessKey },
    });
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    client.destroy();
    return {
      endpoint,
      bucket,
      accessKeyId,
      secretAccessKey,
      env: { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey },
      storeUrl: (prefix, through = endpoint) =>
        `s3://${bucket}/${prefix}?endpoint=${encodeURIComponent(through)}&path-style=true`,
      startedInMs: Date.now() - started,
      stop,
    };
  } catch (error) {
    const logs = DAEMONS.map((name) => `${name}:\n${logTail(name)}`).join('\n');
    await stop();
    throw new Error(`the Ceph cluster did not start: ${(error as Error).message}\n${logs}`, { cause: error });
  }
}
