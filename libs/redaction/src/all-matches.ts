/**
 * Every match of global `pattern` in `text`, as `text.matchAll(pattern)` yields them, without
 * its cost: matchAll clones the pattern on every call (a new RegExp from the source, whose
 * flags and cache lookup cost ~3 µs against ~1 µs for the whole scan of a short chunk), and
 * the detectors scan every excerpt and call turn of a `/context` request this way.
 * Synchronous and eager, so a pattern's `lastIndex` is never seen mid-scan by another caller;
 * it is 0 again afterwards.
 * @throws TypeError for a non-global pattern, as matchAll does.
 */
export function allMatches(pattern: RegExp, text: string): RegExpExecArray[] {
  if (!pattern.global) {
    throw new TypeError(`allMatches needs a global pattern: /${pattern.source}/${pattern.flags}`);
  }
  const unicode = pattern.unicode || pattern.flags.includes('v');
  const found: RegExpExecArray[] = [];
  pattern.lastIndex = 0;
  try {
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      found.push(m);
      if (m[0] === '') {
        pattern.lastIndex = advance(text, pattern.lastIndex, unicode);
      }
    }
  } finally {
    pattern.lastIndex = 0;
  }
  return found;
}

/** The next index after an empty match: past a whole surrogate pair in unicode mode. */
function advance(text: string, index: number, unicode: boolean): number {
  if (!unicode || index + 1 >= text.length) {
    return index + 1;
  }
  const code = text.charCodeAt(index);
  const next = text.charCodeAt(index + 1);
  return code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff
    ? index + 2
    : index + 1;
}
