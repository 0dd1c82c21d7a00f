// The forms a secret takes once a server or a renderer has encoded it, and a scan of a channel
// (a log, a report file) for any of them.
import assert from 'node:assert/strict';

export function secretForms(secret: string): string[] {
  const html = (quote: string) => secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, quote);
  const all = [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret), Buffer.from(secret).toString('base64'), html('&#39;'), html('&#x27;'), secret.replace(/\s+/g, ' ')];
  for (const line of secret.split('\n')) if (line.length > 3) all.push(line, Buffer.from(line).toString('base64'));
  return [...new Set(all)];
}

export function assertClean(channel: string, text: string, secrets: string[]): void {
  for (const secret of secrets) {
    for (const form of secretForms(secret)) {
      const at = text.indexOf(form);
      assert.equal(at, -1, `${channel} holds a form of a secret ("${form.slice(0, 6)}…") near: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 40))}`);
    }
  }
}
