// The steps of a fleet release in the tests of rollouts: each site's system update, then its
// alerts gate (a read, run again by every resume and by the analysis), over the matrix key `site`.
export const FLEET_STEPS = `steps:
  - id: update
    name: "Update \${{ matrix.site }}"
    uses: update/system
    matrix: { site: "\${{ vars.sites }}" }
    server: \${{ matrix.site }}
    with: { target: prod }
  - id: alerts
    name: "No critical alert at \${{ matrix.site }}"
    uses: monitoring/alerts
    matrix: { site: "\${{ vars.sites }}" }
    server: \${{ matrix.site }}
    with: { fail-on: critical }
`;
