// The help texts of the CLI.
import { VERSION } from '../version.ts';

export const MAIN_HELP = `enginectl ${VERSION}: deployment pipelines for the enterprise system's HTTP API

Usage: enginectl <command> [options]

Commands:
  run FILE              validate, then run a pipeline (--dry-run, --emulator, --var, --only,
                        --journal F, --resume F)
  report JOURNAL        render the reports of a run from its journal, also of a killed run
  report --merge F...   the reports (or journals) of a fleet's jobs as one report
  verify JOURNAL        read back the targets of a journal's in-doubt calls: applied or not
  runs --store URL      the runs a run store holds (run --store URL): resume, report or verify one
                        from any machine by its id (report --store URL --run ID); --parked:
                        the parked runs (run exited 75) and what each waits for
  decide --store URL --run ID
                        what a parked run waits for, with the evidence; --retry, --skip,
                        --exclude VALUE, --continue, --abort: the decision, recorded
  shard FILE --store URL --shards N
                        plan a run over N workers the CI system or a cluster runs (each: run
                        --store URL --run ID --shard I/N); waves and one failure budget across them
  lease status NAME     who holds a fleet lease in the run store, and who waits (lease release
                        NAME --reason: give up the lease of a holder that is gone)
  validate FILE...      check pipeline files; every problem as FILE:LINE:COL
  plan FILE             the dry run: each call that would be made, secrets masked
  schema                print the pipeline JSON Schema
  matrix FILE           print a step's matrix as JSON for a CI job matrix
  api METHOD PATH       one raw API call, like \`gh api\`
  emulator              serve the embedded emulator of the enterprise API

Options:
  -h, --help            show help (also: enginectl <command> --help)
  -v, --version         print the version

Exit codes: 0 success, 1 a call or step failed, 2 invalid input, 3 a drift audit could
not read a site (plan --live --expect), 69 a shard's worker sent nothing (run the same index
again), 75 parked (run --store: saved to go on with run --continue), 130/143/129 interrupted
(SIGINT/SIGTERM/SIGHUP).
The codes of each error: docs/error-codes.md.
Docs: docs/pipeline-format.md, docs/emulator.md, docs/api-client.md`;
