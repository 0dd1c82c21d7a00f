// How long after its record a write may still be handed to the network (30 s: room for a store's
// own retries of a put; it only delays verify's "not applied" by as much). The journal records a write before it is
// sent (its `send` record, with the record's time), and verify counts from that time when it
// decides that a write is "not applied" (its `longest:` past, monitoring's lag past). A record put
// slowly (a store that answers late, a runner paused while it was written) would have the write
// leave later than its record says; so a write whose record took longer than this to be written is
// not sent (the run stops, the write in doubt and verified on resume), and verify counts from its
// record's time plus this bound: the latest the write can have left.
export const SEND_WITHIN_MS = 30_000;
