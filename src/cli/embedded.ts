// `--emulator`: an in-process emulator on a free loopback port for the length of one command.
import { Emulator, serve } from '../emulator/index.ts';

export async function withEmbeddedEmulator<T>(body: (url: string, emulator: Emulator) => Promise<T>): Promise<T> {
  const emulator = new Emulator();
  const running = await serve(emulator, { port: 0 });
  try {
    return await body(running.url, emulator);
  } finally {
    await running.close();
  }
}
