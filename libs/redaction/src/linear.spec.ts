import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import ts from 'typescript';

import { auditedPatterns, linear, MAX_REACH, reach } from './linear';
import { Redactor } from './redactor';

/**
 * Linear time by construction (see linear.ts): every pattern that scans a whole text has a
 * bounded reach, checked from its source. No wall clock: the proof is structural, and
 * `npm run bench:redact-adversarial` measures the cost it implies.
 */
describe('reach', () => {
  it.each<[string, number]>([
    [String.raw`\d{1,3}(?:\.\d{1,3}){3}`, 15],
    [String.raw`(?<![\w.])ab|c`, 2],
    [String.raw`(\d{2})-\1`, 5],
    [String.raw`[a-z\]]{0,4}x?`, 5],
    [String.raw`\p{Lu}\b\u00e9\x41`, 3],
    [String.raw`a{2}b{0}`, 2],
  ])('bounds /%s/ at %d', (source, expected) => {
    expect(reach(source)).toBe(expected);
  });

  it.each([
    String.raw`(a+)+`,
    String.raw`\s*$`,
    String.raw`x(?=.*y)`,
    String.raw`a{2,}`,
    String.raw`(?<name>a*)\k<name>`,
  ])('finds /%s/ unbounded', (source) => {
    expect(reach(source)).toBe(Infinity);
  });

  it('rejects the German-compound street pattern that went quadratic on "A-A-A-…"', () => {
    // libs/redaction/src/detectors/international-address.detector.ts:72 at 49630dd, shape kept.
    const old = String.raw`(?<![\p{L}\d])(?:(?:Am|An\s+der|Im)\s+)?\p{Lu}[\p{L}-]*(?:weg|platz)\s+\d{1,4}`;
    expect(reach(old)).toBe(Infinity);
    expect(() => linear(new RegExp(old, 'gu'))).toThrow(/unbounded reach/);
  });
});

describe('every redaction pattern', () => {
  // Loading the redactor builds every detector module, each registering its patterns.
  new Redactor();

  it('has a bounded reach, but for the one documented exception', () => {
    const audited = auditedPatterns();
    expect(audited.length).toBeGreaterThan(40);
    const unbounded = audited.filter((a) => a.reach > MAX_REACH);
    // A dictated digit run ("five five five oh one …") has no length limit.
    expect(unbounded.map((a) => a.unboundedBecause !== undefined)).toEqual([true]);
    expect(unbounded[0].pattern.source).toContain('hundred');
  });

  /**
   * Patterns not built through `linear` must have a bounded reach too, unless they only
   * ever see a bounded slice (a candidate match, a window of context): listed here by file
   * and declaration, so a new unbounded scan over the whole text fails this test.
   */
  const SLICE_ONLY: Readonly<Record<string, readonly string[]>> = {
    'linear.ts': ['digits', 'm'],
    'spoken-digits.ts': ['GAP', 'NUMERAL'],
    'detectors/address-cue.ts': ['ASKED'],
    'detectors/credit-card.detector.ts': ['GROUP'],
    'detectors/detector.ts': ['NON_DIGITS'],
    'detectors/international-address.detector.ts': ['firstWord'],
    'detectors/ip-address.detector.ts': ['VERSION_LABEL'],
    'detectors/nanp-plan.ts': ['whole'],
    'detectors/phone-international.ts': ['pattern', 'THOUSANDS', 'AMOUNT_AFTER'],
    'detectors/phone.detector.ts': ['GROUP', 'DECIMAL', 'SHORT_GROUPS'],
    'detectors/spoken-email.ts': ['LOCAL_SHAPE'],
    'detectors/street-address.detector.ts': ['WHITESPACE', 'HOUSE_NUMBER'],
  };

  it('outside `linear` is bounded or listed as seeing only a bounded slice', () => {
    const found: Record<string, string[]> = {};
    for (const file of sourceFiles(__dirname)) {
      const name = relative(__dirname, file);
      const sf = ts.createSourceFile(
        file,
        readFileSync(file, 'utf8'),
        ts.ScriptTarget.Latest,
        true,
      );
      const visit = (node: ts.Node): void => {
        const literal = node.kind === ts.SyntaxKind.RegularExpressionLiteral;
        const built = ts.isNewExpression(node) && node.expression.getText() === 'RegExp';
        if ((literal || built) && !insideLinear(node)) {
          const text = node.getText();
          const bounded = literal && reach(text.slice(1, text.lastIndexOf('/'))) <= MAX_REACH;
          if (!bounded) {
            (found[name] ??= []).push(declarationName(node));
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(sf);
    }
    expect(found).toEqual(SLICE_ONLY);
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      return sourceFiles(path);
    }
    return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [path] : [];
  });
}

function insideLinear(node: ts.Node): boolean {
  for (let n = node.parent; n !== undefined; n = n.parent) {
    if (ts.isCallExpression(n) && n.expression.getText() === 'linear') {
      return true;
    }
    if (ts.isVariableDeclaration(n) || ts.isFunctionDeclaration(n)) {
      return false;
    }
  }
  return false;
}

function declarationName(node: ts.Node): string {
  for (let n = node.parent; n !== undefined; n = n.parent) {
    if (ts.isVariableDeclaration(n) || ts.isPropertyAssignment(n)) {
      return n.name.getText();
    }
  }
  return '?';
}
