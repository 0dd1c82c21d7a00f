// How much Markdown any channel renders. A longer text is never rendered: the HTML report shows
// its start as plain text, and the summary (1 MiB in all) leaves it out with a pointer to the JSON
// report. So a secret split by Markdown that a page would join again can only be joined in a text
// at most this long, and the masker looks for such splits only there.
export const MARKDOWN_LIMIT = 1024 * 1024;
