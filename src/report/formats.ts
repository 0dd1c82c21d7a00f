// Every report format, once: its key, the command-line flag, the file name the action writes and
// the help line derive from this table, so a new format is one renderer file and one entry here.
import { reportJsonPieces } from './json.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import type { Report } from './model.ts';
import type { WaysOn } from '../ways-on.ts';

export interface ReportFormat {
  readonly key: string;
  /** The option of `run` and `report` that names the file. */
  readonly flag: `--${string}`;
  /** How the action's file of this format ends: `<base>.<extension>`. */
  readonly extension: string;
  /** The option's line in `--help`. */
  readonly help: string;
  /** The file's text; `fullReport` names where the full reports are, for a note when parts are cut; `ways` how the surface names the ways on. */
  render(report: Report, fullReport: string | undefined, ways?: WaysOn): string | Iterable<string> | Promise<string>;
}

export const REPORT_FORMATS = [
  {
    key: 'json',
    flag: '--report-json',
    extension: 'json',
    help: 'write the JSON report (docs/report-format.md)',
    render: (report) => reportJsonPieces(report),
  },
  {
    key: 'junit',
    flag: '--junit',
    extension: 'junit.xml',
    help: 'write JUnit XML, one testcase per step instance',
    render: (report, _fullReport?: string, ways?: WaysOn) => renderJunit(report, ways),
  },
  {
    key: 'summary',
    flag: '--summary',
    extension: 'md',
    help: 'write the Markdown summary (under 1 MiB)',
    render: (report, fullReport?: string, ways?: WaysOn) => renderMarkdown(report, { fullReport, ways }),
  },
  // The HTML renderer (and its Markdown parser) loads only when a run asks for HTML.
  {
    key: 'html',
    flag: '--html',
    extension: 'html',
    help: 'write the self-contained HTML report with a timeline',
    render: async (report, _fullReport?: string, ways?: WaysOn) => (await import('./html.ts')).renderHtml(report, ways),
  },
] as const satisfies readonly ReportFormat[];

export type ReportKey = (typeof REPORT_FORMATS)[number]['key'];

/** Where each report asked for goes. */
export type ReportPaths = { [K in ReportKey]?: string | undefined };

/** The formats' options, as `parseArgs` takes them. */
export const REPORT_OPTIONS = Object.fromEntries(
  REPORT_FORMATS.map((f) => [f.flag.slice(2), { type: 'string' as const }]),
) as Record<string, { type: 'string' }>;

/** The formats' lines of a command's `--help`. */
export const REPORT_OPTIONS_HELP = REPORT_FORMATS.map((f) => `  ${`${f.flag} F`.padEnd(19)}${f.help}`).join('\n');

/** The report paths named by parsed options. */
export function reportPathsOf(values: Readonly<Record<string, unknown>>): ReportPaths {
  return Object.fromEntries(REPORT_FORMATS.map((f) => [f.key, values[f.flag.slice(2)] as string | undefined]));
}

/** The action's report files: `<base>.<extension>` for every format. */
export function reportFilesAt(base: string): Required<ReportPaths> {
  return Object.fromEntries(REPORT_FORMATS.map((f) => [f.key, `${base}.${f.extension}`])) as Required<ReportPaths>;
}
