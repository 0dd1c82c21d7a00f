// The time a window or a freeze is judged at. A run's real clock is steady (app/clock.ts: the wall
// clock at the process's start, then the monotonic clock), so a wall clock set back (NTP, an
// operator) moves no duration, deadline or wait. But on Linux the monotonic clock does not advance
// while the machine is suspended (a laptop's lid closed, a VM paused): after a 3-hour suspend the
// steady clock is 3 hours behind, and a window judged on it alone is judged 3 hours in the past, so
// a write would go into a window that closed meanwhile. Windows are judged at the later of the two
// instead: the safe side, a write refused rather than sent late, and a wall clock set back still
// moves no window back. A simulated clock (tests, `run --emulator --clock`) has no wall clock to be
// later than: its own time is the one windows are judged at.

/** A clock as windows read it: `latest`, only a real clock's, is the later of its time and the wall clock. */
export interface WindowClock {
  now(): number;
  latest?: (() => number) | undefined;
}

/** When a window or a freeze is judged on `clock`: its `latest` when it has one, else its time. */
export function windowTime(clock: WindowClock): number {
  return clock.latest ? clock.latest() : clock.now();
}
