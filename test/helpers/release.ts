// The release build's modules (release/*.mjs, plain JavaScript) as the tests call them, typed once.
import { join } from 'node:path';
import { ROOT } from './action.ts';

export interface ReleaseModules {
  runtimeBinary(runtimes: unknown, platform: string, cache: string, dir: string): string;
  seaBlob(node: string, work: string): Promise<string>;
  inject(runtime: string, blob: string, out: string, options?: { windows: boolean }): string;
  signWindows(file: string, options: { pfx: string; password: string }): void;
  buildImage(options: {
    executables: { amd64: string; arm64: string };
    version: string;
    work: string;
    cache: string;
    out: string;
    epoch: number;
  }): string;
}

/** Where the release build keeps the runtimes it downloaded. */
export const RELEASE_CACHE = join(ROOT, 'node_modules/.cache/enginectl-release');

export async function releaseModules(): Promise<ReleaseModules> {
  const [runtime, executable, image] = await Promise.all(
    ['runtime.mjs', 'executable.mjs', 'image.mjs'].map((f) => import(join(ROOT, 'release', f))),
  );
  return { ...runtime, ...executable, ...image } as ReleaseModules;
}
