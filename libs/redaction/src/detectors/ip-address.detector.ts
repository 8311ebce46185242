import { isIPv4, isIPv6 } from 'node:net';

import { BASE_CONFIDENCE } from '../entity-types';
import { type Detection, type DetectorOptions, hasContext } from './detector';

/** Dotted quad not glued to words, other dots or digits; `net.isIPv4` does the parsing. */
const IPV4 = /(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w]|\.\d)/g;

/** Characters an IPv6 address (including an embedded IPv4 tail) is made of. */
const IPV6_CHAR = new Uint8Array(128);
for (const c of '0123456789abcdefABCDEF:.') {
  IPV6_CHAR[c.charCodeAt(0)] = 1;
}
const WORD_CHAR = /\w/;
const HAS_DIGIT = /\d/;
const TRAILING_DOTS = /\.+$/;

/** "version 1.2.3.4", "build 10.0.0.1": four-part version strings look like addresses. */
const VERSION_LABEL =
  /\b(?:v|ver|version|build|release|rel|rev|revision|firmware|fw|sdk|patch)\.?\s*[:#]?\s*$/i;

/** IPv4 and IPv6 addresses, parsed rather than pattern-matched. */
export function detectIpAddresses(text: string, _options: DetectorOptions, out: Detection[]): void {
  for (const m of text.matchAll(IPV4)) {
    const end = m.index + m[0].length;
    if (isIPv4(m[0]) && !hasContext(text, m.index, end, VERSION_LABEL, 24)) {
      out.push({ type: 'IP_ADDRESS', start: m.index, end, score: BASE_CONFIDENCE.IP_ADDRESS });
    }
  }
  // IPv6: expand each colon to the run of hex digits, colons and dots around it and let
  // net.isIPv6 judge the run. A linear scan: prose colons ("Agent: hi") fail at once.
  for (let colon = text.indexOf(':'); colon !== -1;) {
    let start = colon;
    while (start > 0 && IPV6_CHAR[text.charCodeAt(start - 1)] === 1) {
      start--;
    }
    let end = colon;
    while (end < text.length && IPV6_CHAR[text.charCodeAt(end)] === 1) {
      end++;
    }
    const candidate = text.slice(start, end).replace(TRAILING_DOTS, '');
    const glued = WORD_CHAR.test(text.charAt(start - 1)) || WORD_CHAR.test(text.charAt(end));
    // Words like "dad::bad" and the bare "::" parse as IPv6 but never name a host.
    if (!glued && HAS_DIGIT.test(candidate) && isIPv6(candidate)) {
      out.push({
        type: 'IP_ADDRESS',
        start,
        end: start + candidate.length,
        score: BASE_CONFIDENCE.IP_ADDRESS,
      });
    }
    colon = text.indexOf(':', end);
  }
}
