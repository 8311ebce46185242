import { Cooperative } from '@app/common';

/** Bodies up to this size parse in one `JSON.parse`: a few ms at most. */
export const COOPERATIVE_JSON_MIN_CHARS = 1024 * 1024;

/** Characters scanned between two looks at the clock. */
const SCAN_STEP = 64 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const isOpener = (c: number) => c === 0x5b || c === 0x7b; // [ {
const isCloser = (c: number) => c === 0x5d || c === 0x7d; // ] }

/**
 * The element texts of a top-level JSON array, found by one linear scan that yields to the
 * event loop as it goes; `undefined` when the text is not an array (it is then parsed
 * whole). Strings and nested values are skipped, so commas and brackets inside them split
 * nothing. An array that never closes, or closes with `}`, throws a `SyntaxError`; other
 * malformed text still yields pieces, each parsed later and failing there.
 */
export async function topLevelElements(text: string): Promise<string[] | undefined> {
  let i = 0;
  while (i < text.length && /\s/.test(text[i])) {
    i++;
  }
  if (text.charCodeAt(i) !== 0x5b) {
    return undefined;
  }
  const elements: string[] = [];
  const cooperative = new Cooperative();
  let depth = 0;
  let inString = false;
  let escaped = false;
  let start = i + 1;
  for (; i < text.length; i++) {
    if (i % SCAN_STEP === 0) {
      await cooperative.turn();
    }
    const c = text.charCodeAt(i);
    if (inString) {
      if (escaped) {
        escaped = false;
      } else if (c === BACKSLASH) {
        escaped = true;
      } else if (c === QUOTE) {
        inString = false;
      }
    } else if (c === QUOTE) {
      inString = true;
    } else if (isOpener(c)) {
      depth++;
    } else if (isCloser(c)) {
      if (--depth === 0) {
        if (c !== 0x5d) {
          throw new SyntaxError(`Unexpected "}" at position ${i}`);
        }
        push(elements, text.slice(start, i), true);
        return text.slice(i + 1).trim() === '' ? elements : [...elements, text.slice(i + 1)];
      }
    } else if (c === COMMA && depth === 1) {
      push(elements, text.slice(start, i), false);
      start = i + 1;
    }
  }
  throw new SyntaxError('Unexpected end of JSON input: the array is not closed');
}

/** An empty piece is only fine as the whole of `[]`; otherwise it is kept, to fail parsing. */
function push(elements: string[], piece: string, closing: boolean): void {
  if (!(closing && elements.length === 0 && piece.trim() === '')) {
    elements.push(piece);
  }
}

/**
 * Parses a large JSON body without one long block of the event loop: a top-level array is
 * split ({@link topLevelElements}) and each element parsed by `parse` (Fastify's parser, with
 * its prototype-poisoning guard) between turns. A 32 MB array at the ingest cap is ~100–170 ms
 * of `JSON.parse` in one piece on a 2-core box; this way no slice is longer than a few ms.
 */
export async function parseJsonCooperatively(
  text: string,
  parse: (piece: string) => unknown,
): Promise<unknown> {
  const elements = await topLevelElements(text);
  if (!elements) {
    return parse(text);
  }
  const cooperative = new Cooperative();
  const values: unknown[] = [];
  for (const element of elements) {
    await cooperative.turn();
    values.push(parse(element));
  }
  return values;
}
