// A parked fleet (helpers.ts parkFleet) behind a gateway that holds the next request a test names
// until the test lets it through: a write in flight, for as long as the test needs, without a
// timer (decide-held, two-continues, own-lease-every-runner).
import type { TestContext } from 'node:test';
import { gatewayInFront } from '../helpers/gateway.ts';
import { parkFleet } from './helpers.ts';

/** The path of classes/update's PATCH that WRITE sends. */
export const UPDATE_ENTITY = '/api/classes/v1/classes/12/entities/2001';

/** A write step of one PATCH per site, whose call verify reads back (longest: 1m). */
export const WRITE = `  - id: update
    name: "Update \${{ matrix.site }}"
    uses: classes/update
    matrix: { site: "\${{ vars.sites }}" }
    server: \${{ matrix.site }}
    longest: 1m
    with: { class: 12, id: 2001, fields: { iemailaddress: new@example.com } }`;

/** `n` sites rolled out as `rollout` says (with `write` for the fleet's write step, when given); `holdNext` holds the next request it matches. */
export async function heldFleet(t: TestContext, n: number, rollout: string, write?: string) {
  let hold: { match: (m: string, p: string) => boolean; arrived: () => void; released: Promise<void> } | undefined;
  const f = await parkFleet(t, n, rollout, '', '', {
    ...(write === undefined ? {} : { write }),
    front: (url) =>
      gatewayInFront(
        t,
        url,
        () => undefined,
        async (method, path) => {
          const h = hold;
          if (!h?.match(method, path)) return;
          hold = undefined;
          h.arrived();
          await h.released;
        },
      ),
  });
  const holdNext = (match: (m: string, p: string) => boolean) => {
    let arrived!: () => void;
    let release!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    hold = { match, arrived, released };
    t.after(release);
    return { reached, release };
  };
  return { f, holdNext };
}
