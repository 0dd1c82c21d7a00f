// The help texts of the CLI.
import { VERSION } from '../version.ts';

export const MAIN_HELP = `enginectl ${VERSION}: deployment pipelines for the enterprise system's HTTP API

Usage: enginectl <command> [options]

Commands:
  api METHOD PATH       one raw API call, like \`gh api\`
  emulator              serve the embedded emulator of the enterprise API

Options:
  -h, --help            show help (also: enginectl <command> --help)
  -v, --version         print the version

Exit codes: 0 success, 1 a call or step failed, 2 invalid input, 130/143 interrupted.
Docs: docs/emulator.md, docs/api-client.md`;
