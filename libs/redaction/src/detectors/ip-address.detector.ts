import { isIPv4, isIPv6 } from 'node:net';

import { allMatches } from '../all-matches';
import { BASE_CONFIDENCE } from '../entity-types';
import { linear } from '../linear';
import { type Detection, type DetectorOptions, hasContext } from './detector';

/** Dotted quad not glued to words, other dots or digits; `net.isIPv4` does the parsing. */
const IPV4 = linear(/(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w]|\.\d)/g);

/** Characters an IPv6 address (including an embedded IPv4 tail) is made of. */
const IPV6_CHAR = new Uint8Array(128);
for (const c of '0123456789abcdefABCDEF:.') {
  IPV6_CHAR[c.charCodeAt(0)] = 1;
}
const WORD_CHAR = /\w/;
const HAS_DIGIT = /\d/;
/** Longest textual IPv6 address with an IPv4 tail (45); longer runs are not addresses. */
const MAX_IPV6 = 45;

/**
 * A CIDR prefix length right after an address: masked with it (`10.0.0.0/8` names a
 * network). A dot after it ends the sentence; only a dot and a digit ("/8.5") is not one.
 */
const CIDR = linear(/\/\d{1,3}(?!\w|\.\d)/y);
/** An IPv6 zone id (`fe80::1%eth0`, `%25` when URL-escaped). */
const ZONE = linear(/%(?:25)?[A-Za-z0-9_.-]{1,32}/y);
/** Words near a bare `::` that make it the unspecified address, not punctuation. */
const IP_CONTEXT =
  /\b(?:ip|ipv6|address|addr|bind|bound|listen(?:s|ing)?|host|server|route|gateway|interface|iface|source|src|dst|destination)\b/i;
const isBlank = (c: number): boolean => c === 32 || c === 9 || c === 11 || c === 12 || c === 13;

/**
 * Whether only blanks lie between `at` and the edge of its line, walking by `step` (-1 or
 * 1). The walk stops at the first other character, so a blank run is walked by at most
 * the two candidates beside it: linear over all candidates (a `lastIndexOf('\n')` per
 * candidate was quadratic on ":: :: :: …").
 */
function blankToLineEdge(text: string, at: number, step: -1 | 1): boolean {
  for (let i = step < 0 ? at - 1 : at; i >= 0 && i < text.length; i += step) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      return true;
    }
    if (!isBlank(c)) {
      return false;
    }
  }
  return true;
}

/** The end of an address at `end`, extended over a zone id and a CIDR suffix. */
function withSuffixes(text: string, end: number, maxPrefix: number, zone: boolean): number {
  let at = end;
  if (zone) {
    ZONE.lastIndex = at;
    at += ZONE.exec(text)?.[0].length ?? 0;
  }
  CIDR.lastIndex = at;
  const cidr = CIDR.exec(text);
  return cidr && Number(cidr[0].slice(1)) <= maxPrefix ? at + cidr[0].length : at;
}

/** Whether a bare `::` at `[start, end)` stands as an address. */
function unspecifiedAddress(text: string, start: number, end: number): boolean {
  return (
    (blankToLineEdge(text, start, -1) && blankToLineEdge(text, end, 1)) ||
    text[end] === '/' ||
    hasContext(text, start, end, IP_CONTEXT, 24)
  );
}

/** "version 1.2.3.4", "build 10.0.0.1": four-part version strings look like addresses. */
const VERSION_LABEL =
  /\b(?:v|ver|version|build|release|rel|rev|revision|firmware|fw|sdk|patch)\.?\s*[:#]?\s*$/i;

/** IPv4 and IPv6 addresses, parsed rather than pattern-matched. */
export function detectIpAddresses(text: string, _options: DetectorOptions, out: Detection[]): void {
  for (const m of allMatches(IPV4, text)) {
    const end = m.index + m[0].length;
    if (isIPv4(m[0]) && !hasContext(text, m.index, end, VERSION_LABEL, 24)) {
      out.push({
        type: 'IP_ADDRESS',
        start: m.index,
        end: withSuffixes(text, end, 32, false),
        score: BASE_CONFIDENCE.IP_ADDRESS,
      });
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
    let candidateEnd = end;
    while (candidateEnd > start && text.charCodeAt(candidateEnd - 1) === 46) {
      candidateEnd--; // trailing dots end the sentence
    }
    if (candidateEnd - start > MAX_IPV6) {
      colon = text.indexOf(':', end);
      continue;
    }
    const candidate = text.slice(start, candidateEnd);
    // Words like "dad::bad" parse as IPv6 but never name a host; a bare "::" does when it
    // stands as an address (a line of its own, a prefix, IP words nearby).
    const glued =
      WORD_CHAR.test(text.charAt(start - 1)) ||
      (WORD_CHAR.test(text.charAt(end)) && text.charAt(candidateEnd) !== '%');
    const named =
      HAS_DIGIT.test(candidate) ||
      (candidate === '::' && unspecifiedAddress(text, start, candidateEnd));
    if (!glued && named && isIPv6(candidate)) {
      out.push({
        type: 'IP_ADDRESS',
        start,
        end: withSuffixes(text, candidateEnd, 128, true),
        score: BASE_CONFIDENCE.IP_ADDRESS,
      });
    }
    colon = text.indexOf(':', end);
  }
}
