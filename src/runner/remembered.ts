// A masker's memory of the texts it masked: the last few, for one set of secrets. An update's
// report is met several times (its output, its result, the whole result again), and a short text
// (a key, a status, a version) at every instance of a fleet: each is searched once while the
// secrets stay the same (runner/masker.ts).

/** The last `capacity` texts and their masked forms, for one set of secrets (`version`: how many forms it had). */
export class Remembered {
  private readonly entries = new Map<string, string>();
  private version = -1;

  constructor(private readonly capacity: number) {}

  get(text: string, version: number): string | undefined {
    return version === this.version ? this.entries.get(text) : undefined;
  }

  set(text: string, masked: string, version: number): void {
    if (version !== this.version) this.entries.clear();
    this.version = version;
    this.entries.set(text, masked);
    if (masked !== text) this.entries.set(masked, masked);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}
