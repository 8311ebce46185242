import { BASE_CONFIDENCE } from '../entity-types';
import { linear } from '../linear';
import type { Detection, DetectorOptions } from './detector';
import { detectSpokenEmails } from './spoken-email';

/**
 * A practical address: any RFC 5322 `atext` (plus dots) in the local part, since people do
 * use `o'brien@` and `a&b@`, and a dotted domain ending in an alphabetic TLD. Unicode
 * letters and digits count too (RFC 6531: `josé@münchen.de`, `用户@例子.广告`), as do
 * punycode labels and TLDs (`xn--80ak6aa92e.xn--p1ai`). Sticky: it is only ever tried
 * where a local part starts (see {@link detectEmails}); every part is bounded (local part
 * 64, labels 63, ten labels), so an attempt reads a bounded window.
 */
const EMAIL_AT = linear(
  /[\p{L}\p{N}\w.!#$%&'*+/=?^`{|}~-]{1,64}@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.){1,10}(?:xn--[A-Za-z0-9-]{1,59}|\p{L}{2,63})(?![\p{L}\p{N}_-])/uy,
);
/** RFC 5321: a local part holds at most 64 octets. */
const LOCAL_MAX = 64;
const ATEXT = new Uint8Array(128);
for (const c of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.!#$%&'*+/=?^`{|}~-") {
  ATEXT[c.charCodeAt(0)] = 1;
}
const UNICODE_WORD = /[\p{L}\p{N}]/u;

/** Whether the UTF-16 unit `code` may be part of a local part. */
function localPartChar(code: number): boolean {
  return code < 128 ? ATEXT[code] === 1 : UNICODE_WORD.test(String.fromCharCode(code));
}

/** Written and spoken email addresses (see {@link detectSpokenEmails}). */
export function detectEmails(text: string, _options: DetectorOptions, out: Detection[]): void {
  // Anchor on each "@" and walk back to the start of its local part, instead of trying a
  // pattern at every position of the text.
  let minStart = 0;
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', Math.max(at + 1, minStart))) {
    let start = at;
    while (
      start > minStart &&
      at - start < LOCAL_MAX &&
      localPartChar(text.charCodeAt(start - 1))
    ) {
      start--;
    }
    EMAIL_AT.lastIndex = start;
    const m = start < at ? EMAIL_AT.exec(text) : null;
    if (m) {
      minStart = start + m[0].length;
      out.push({ type: 'EMAIL', start, end: minStart, score: BASE_CONFIDENCE.EMAIL });
    }
  }
  detectSpokenEmails(text, out);
}
