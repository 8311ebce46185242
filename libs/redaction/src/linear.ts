/**
 * Linear time by construction. A backtracking engine (V8's irregexp) tries a scanning
 * pattern at up to every position of the text; an attempt can only read as far as the
 * pattern's longest possible match (lookarounds included). When that reach is bounded, each
 * attempt costs at most a constant that depends on the pattern alone, so a scan is linear in
 * the text whatever the text holds. Unbounded reach (`*`, `+`, `{n,}`) is where quadratic
 * blow-ups live: `\p{Lu}[\p{L}-]*` started at each of 30,000 letters of "A-A-A-…" and read
 * to the end every time.
 *
 * Every pattern of this library is built through {@link linear}, which computes the reach
 * from the source and refuses an unbounded one unless a reason is given (a pattern whose
 * unbounded part cannot backtrack, documented at the call).
 */

/** Longest reach a scanning pattern may have, in UTF-16 units. */
export const MAX_REACH = 4096;

/** One audited pattern, for the linearity spec. */
export interface AuditedPattern {
  pattern: RegExp;
  reach: number;
  /** Why an unbounded reach is still linear; undefined for bounded patterns. */
  unboundedBecause?: string;
}

const audited: AuditedPattern[] = [];

/**
 * Registers `pattern` after checking that its reach is bounded by {@link MAX_REACH}.
 * @param unboundedBecause for the rare pattern that must be unbounded: why it is linear
 * anyway. Required for such a pattern.
 * @throws Error at module load for an unbounded pattern without a reason.
 */
export function linear(pattern: RegExp, unboundedBecause?: string): RegExp {
  const r = reach(pattern.source);
  if (r > MAX_REACH && unboundedBecause === undefined) {
    throw new Error(`Redaction pattern with unbounded reach (${r}): /${pattern.source}/`);
  }
  audited.push({
    pattern,
    reach: r,
    unboundedBecause: r > MAX_REACH ? unboundedBecause : undefined,
  });
  return pattern;
}

/** Every pattern registered so far. */
export function auditedPatterns(): readonly AuditedPattern[] {
  return audited;
}

/**
 * The longest run of characters an attempt of `source` can read: the maximal match width,
 * where a lookaround counts as much as its own body could read (a conservative bound) and
 * a back-reference as much as its group. `Infinity` when unbounded.
 */
export function reach(source: string): number {
  return new ReachParser(source).parse();
}

class ReachParser {
  private at = 0;
  private readonly groups: number[] = [];
  private readonly named = new Map<string, number>();
  private groupCount = 0;

  constructor(private readonly src: string) {}

  parse(): number {
    const width = this.alternation();
    if (this.at < this.src.length) {
      throw new Error(`Unbalanced ')' at ${this.at} in /${this.src}/`);
    }
    return width;
  }

  private alternation(): number {
    let max = this.sequence();
    while (this.src[this.at] === '|') {
      this.at++;
      max = Math.max(max, this.sequence());
    }
    return max;
  }

  private sequence(): number {
    let sum = 0;
    while (this.at < this.src.length && this.src[this.at] !== '|' && this.src[this.at] !== ')') {
      sum += this.quantified(this.atom());
    }
    return sum;
  }

  private atom(): number {
    const c = this.src[this.at++];
    switch (c) {
      case '(':
        return this.group();
      case '[':
        this.skipClass();
        return 1;
      case '\\':
        return this.escape();
      case '^':
      case '$':
        return 0;
      default:
        return 1;
    }
  }

  private group(): number {
    let look = false;
    let index: number | undefined;
    let name: string | undefined;
    if (this.src.startsWith('?:', this.at)) {
      this.at += 2;
    } else if (/^\?<?[=!]/.test(this.src.slice(this.at, this.at + 3))) {
      look = true;
      this.at += this.src[this.at + 1] === '<' ? 3 : 2;
    } else {
      index = ++this.groupCount;
      if (this.src.startsWith('?<', this.at)) {
        const close = this.src.indexOf('>', this.at);
        name = this.src.slice(this.at + 2, close);
        this.at = close + 1;
      }
    }
    const width = this.alternation();
    if (this.src[this.at++] !== ')') {
      throw new Error(`Unclosed group in /${this.src}/`);
    }
    if (index !== undefined) {
      this.groups[index] = width;
      if (name !== undefined) {
        this.named.set(name, width);
      }
    }
    // A lookaround matches nothing, but reads its body: bounded reach is what matters.
    return look ? (Number.isFinite(width) ? 0 : Infinity) : width;
  }

  private skipClass(): void {
    while (this.at < this.src.length && this.src[this.at] !== ']') {
      this.at += this.src[this.at] === '\\' ? 2 : 1;
    }
    this.at++;
  }

  private escape(): number {
    const c = this.src[this.at++];
    if (c === 'b' || c === 'B') {
      return 0;
    }
    if ((c === 'p' || c === 'P' || c === 'u' || c === 'x') && this.src[this.at] === '{') {
      this.at = this.src.indexOf('}', this.at) + 1;
    } else if (c === 'k' && this.src[this.at] === '<') {
      const close = this.src.indexOf('>', this.at);
      const width = this.named.get(this.src.slice(this.at + 1, close));
      this.at = close + 1;
      return width ?? Infinity;
    } else if (c >= '1' && c <= '9') {
      const digits = /^\d*/.exec(this.src.slice(this.at))?.[0] ?? '';
      this.at += digits.length;
      return this.groups[Number(c + digits)] ?? Infinity;
    } else if (c === 'u') {
      this.at += 4;
    } else if (c === 'x') {
      this.at += 2;
    } else if (c === 'c') {
      this.at += 1;
    }
    return 1;
  }

  private quantified(width: number): number {
    const c = this.src[this.at];
    let result = width;
    if (c === '*' || c === '+') {
      this.at++;
      result = width === 0 ? 0 : Infinity;
    } else if (c === '?') {
      this.at++;
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.at));
      if (!m) {
        return width; // a literal brace
      }
      this.at += m[0].length;
      const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
      result = width === 0 || max === 0 ? 0 : width * max;
    } else {
      return width;
    }
    if (this.src[this.at] === '?') {
      this.at++; // lazy: same reach
    }
    return result;
  }
}
