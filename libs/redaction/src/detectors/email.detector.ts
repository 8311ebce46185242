import { BASE_CONFIDENCE } from '../entity-types';
import type { Detection, DetectorOptions } from './detector';

/**
 * A practical address: any RFC 5322 `atext` (plus dots) in the local part, since people do
 * use `o'brien@` and `a&b@`, and a dotted domain ending in an alphabetic TLD. Unicode
 * letters and digits count too (RFC 6531: `josé@münchen.de`, `用户@例子.广告`), as do
 * punycode labels and TLDs (`xn--80ak6aa92e.xn--p1ai`). Sticky: it is only ever tried
 * where a local part starts (see {@link detectEmails}), and each domain label must be
 * followed by a dot, so a match attempt is linear.
 */
const EMAIL_AT =
  /[\p{L}\p{N}\w.!#$%&'*+/=?^`{|}~-]+@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+(?:xn--[A-Za-z0-9-]{1,59}|\p{L}{2,63})(?![\p{L}\p{N}_-])/uy;
const ATEXT = new Uint8Array(128);
for (const c of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.!#$%&'*+/=?^`{|}~-") {
  ATEXT[c.charCodeAt(0)] = 1;
}
const UNICODE_WORD = /[\p{L}\p{N}]/u;

/** Whether the UTF-16 unit `code` may be part of a local part. */
function localPartChar(code: number): boolean {
  return code < 128 ? ATEXT[code] === 1 : UNICODE_WORD.test(String.fromCharCode(code));
}

/**
 * The ASR rendering: "john dot smith at example dot com", "jane.smith at gmail dot com",
 * and the anti-scraping "jane [at] example [dot] com". Limited to common TLDs because "at"
 * and "dot" are ordinary words; a two-word local part ("john smith at …") masks only its
 * last word, which is the part that identifies the mailbox.
 *
 * Linear by construction: a match may only start where no local-part character precedes
 * (so each word is tried once, not at every one of its characters: `\b` let
 * "x dot a-a-a-…" start at every "a" and rescan the rest, quadratic), the written local
 * part is a deterministic `x(.x)*`, and the dotted parts are bounded ({0,4}).
 */
const AT = String.raw`(?:\s+at\s+|\s*[[(]\s*at\s*[\])]\s*)`;
const DOT = String.raw`(?:\s+dot\s+|\s*[[(]\s*dot\s*[\])]\s*)`;
const SPOKEN_EMAIL = new RegExp(
  String.raw`(?<![\w.+-])[a-z0-9](?:[\w+-]|\.[\w+-])*(?:${DOT}[\w-]+){0,4}${AT}[a-z0-9][\w-]*(?:${DOT}[\w-]+){0,4}${DOT}(?:com|net|org|edu|gov|mil|io|co|us|uk|ca|de|fr|es|it|nl|br|mx|in|au|info|biz|me|ai|app|dev)\b`,
  'gi',
);
const HAS_SPOKEN_DOT = /\bdot\b/i;

/** Written and spoken email addresses. */
export function detectEmails(text: string, _options: DetectorOptions, out: Detection[]): void {
  // Anchor on each "@" and walk back to the start of its local part, instead of trying a
  // pattern at every position of the text.
  let minStart = 0;
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', Math.max(at + 1, minStart))) {
    let start = at;
    while (start > minStart && localPartChar(text.charCodeAt(start - 1))) {
      start--;
    }
    EMAIL_AT.lastIndex = start;
    const m = start < at ? EMAIL_AT.exec(text) : null;
    if (m) {
      minStart = start + m[0].length;
      out.push({ type: 'EMAIL', start, end: minStart, score: BASE_CONFIDENCE.EMAIL });
    }
  }
  if (HAS_SPOKEN_DOT.test(text)) {
    for (const m of text.matchAll(SPOKEN_EMAIL)) {
      const start = m.index;
      out.push({
        type: 'EMAIL',
        start,
        end: start + m[0].length,
        score: BASE_CONFIDENCE.EMAIL - 0.1,
      });
    }
  }
}
