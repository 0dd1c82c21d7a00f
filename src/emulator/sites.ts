// Several sites served by one emulator process, each with its own state, under one clock: a site
// is an API server of a pipeline (pipelines/inventory/sites.yml names test, staging and prod), at
// /sites/NAME/ of the served URL; the root is the site named `default` (the server ENGINE_URL
// defines). A site starts when first called, from its own state, the shared one, or the sample
// state. Faults are one set for every site, as rules of the network between enginectl and them.
import { Emulator, type EmulatorOptions } from './emulator.ts';
import { FaultSet } from './faults/index.ts';
import { DEFAULT_SITE } from './site-url.ts';
import type { EmulatorState } from './state.ts';

export interface SitesOptions extends EmulatorOptions {
  /** Each named site's own state; `state` for the others. */
  states?: Readonly<Record<string, EmulatorState>>;
  /** Target databases whose replications fail, at every site that has them: database -> message. */
  failReplication?: ReadonlyMap<string, string | undefined>;
  /** Told of each site as it starts. */
  onStart?: ((name: string, site: Emulator) => void) | undefined;
}

export class Sites {
  readonly faults: FaultSet;
  private readonly sites = new Map<string, Emulator>();

  constructor(private readonly options: SitesOptions = {}) {
    this.faults = new FaultSet();
    for (const rule of options.faults ?? []) this.faults.add(rule);
  }

  /** The site of that name, started from its state on first use. */
  site(name: string): Emulator {
    let site = this.sites.get(name);
    if (!site) {
      const { states, failReplication, onStart, faults: _faults, ...common } = this.options;
      site = new Emulator({ ...common, state: states?.[name] ?? this.options.state, faultSet: this.faults });
      for (const [database, message] of failReplication ?? []) {
        if (site.state.databases.some((d) => d.name === database)) site.failReplication(database, message);
      }
      this.sites.set(name, site);
      onStart?.(name, site);
    }
    return site;
  }

  /** The sites started so far, by name. */
  started(): ReadonlyMap<string, Emulator> {
    return this.sites;
  }

  /** The site a request path is for and the path within it: /sites/NAME/rest, else the default site. */
  locate(pathname: string): { site: Emulator; path: string; name: string } {
    const m = /^\/sites\/([^/]+)(\/.*)?$/.exec(pathname);
    if (!m) return { site: this.site(DEFAULT_SITE), path: pathname, name: DEFAULT_SITE };
    const name = decodeURIComponent(m[1]!);
    return { site: this.site(name), path: m[2] ?? '/', name };
  }
}
