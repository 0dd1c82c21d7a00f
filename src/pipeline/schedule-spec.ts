// A valid file's windows:, freezes:, window-margin: and override-freeze: as the runner's
// ScheduleSpec (schedule/spec.ts): durations in ms, dated ranges as instants read in their zone.
// Absent when the file has neither windows nor freezes.
import { parseDuration } from '../duration.ts';
import { instantOf } from '../schedule/recurrence.ts';
import { DEFAULT_MARGIN, type Margin, type ScheduleSpec } from '../schedule/spec.ts';
import type { PipelineFile } from './schema.ts';

function marginOf(text: string | undefined): Margin {
  if (text === undefined) return DEFAULT_MARGIN;
  return text.endsWith('%') ? { share: Number(text.slice(0, -1)) / 100 } : { ms: parseDuration(text)! };
}

export function scheduleSpecOf(data: PipelineFile): ScheduleSpec | undefined {
  const windows = Object.entries(data.windows ?? {});
  const freezes = Object.entries(data.freezes ?? {});
  if (windows.length === 0 && freezes.length === 0) return undefined;
  return {
    windows: windows.map(([name, w]) => ({
      name,
      cron: w.cron,
      zone: w.zone,
      durationMs: parseDuration(w.duration)!,
      matrix: w.matrix,
      quiet: w.quiet && {
        except: w.quiet.except ?? [],
        droppingWithinMs:
          w.quiet['dropping-within'] === undefined ? undefined : parseDuration(w.quiet['dropping-within']),
      },
    })),
    freezes: freezes.map(([name, f]) => ({
      name,
      recurrence:
        f.cron === undefined ? undefined : { cron: f.cron, zone: f.zone, durationMs: parseDuration(f.duration!)! },
      // On the safe side: from the earliest instant its start names to the latest its end does (a DST change).
      dates: f.dates?.map((d) => ({ start: instantOf(d.from, f.zone)!, end: instantOf(d.to, f.zone, 'latest')! })),
      matrix: f.matrix,
    })),
    margin: marginOf(data['window-margin']),
    overrideFreeze: data['override-freeze'] ?? [],
  };
}
