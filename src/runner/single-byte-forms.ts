// A secret past ASCII as an answer reads when the server wrote it in a single-byte charset: every
// answer is read as UTF-8 (api/read-body.ts), which does not read such bytes one at a time: two of
// them that begin a multi-byte sequence are one U+FFFD (`ół`, F3 B3 in windows-1250), two that make
// a whole one are a character (`ÓŁ`, D3 A3: `ӣ`). So each charset's bytes of the secret, read as
// UTF-8, are a form of their own: built for the single-byte charsets servers answer in.

/** The single-byte charsets of the servers' error pages and messages (WHATWG names). */
const CHARSETS = [
  'windows-1250',
  'windows-1251',
  'windows-1252',
  'windows-1253',
  'windows-1254',
  'windows-1255',
  'windows-1256',
  'windows-1257',
  'windows-1258',
  'iso-8859-2',
  'iso-8859-4',
  'iso-8859-5',
  'iso-8859-7',
  'iso-8859-13',
  'iso-8859-15',
  'koi8-r',
  'koi8-u',
];

/** Each charset's byte of each character past ASCII it holds, built once; none for a charset this Node does not know. */
let tables: Map<string, number>[] | undefined;

function byteTables(): Map<string, number>[] {
  tables ??= CHARSETS.flatMap((charset) => {
    let decoder: InstanceType<typeof TextDecoder>;
    try {
      decoder = new TextDecoder(charset);
    } catch {
      return [];
    }
    const table = new Map<string, number>();
    // Byte by byte, streamed then flushed: Node 20's one-shot windows-1252 decodes 0x80-0x9F as Latin-1.
    for (let byte = 0x80; byte <= 0xff; byte++) {
      const char = decoder.decode(Uint8Array.of(byte), { stream: true }) + decoder.decode();
      if (char.length === 1 && char !== '\ufffd' && !table.has(char)) table.set(char, byte);
    }
    return [table];
  });
  return tables;
}

/** `text` (past ASCII) as each single-byte charset that holds every character of it writes it, read as UTF-8. */
export function singleByteForms(text: string): string[] {
  const forms: string[] = [];
  for (const table of byteTables()) {
    const bytes: number[] = [];
    for (const char of text) {
      const code = char.codePointAt(0)!;
      const byte = code < 0x80 ? code : table.get(char);
      if (byte === undefined) break;
      bytes.push(byte);
    }
    if (bytes.length === [...text].length) forms.push(Buffer.from(bytes).toString('utf8'));
  }
  return forms;
}
