// quiet: on a window (pipeline-format.md, When the users are out): what the schedule, its
// spec and the quiet gate share.

/** A window's writes wait for no application session on the server's Engines but these. */
export interface QuietSpec {
  /** Sessions that may stay, by userName or applicationName. */
  except: readonly string[];
  /** A session whose drop is due within this long counts as gone. */
  droppingWithinMs?: number | undefined;
}
