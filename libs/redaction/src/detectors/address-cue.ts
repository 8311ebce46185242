import { allMatches } from '../all-matches';
import { linear } from '../linear';
import { hasContext } from './detector';

/**
 * Words that announce an address: what a speaker says right before giving one. A street
 * that would be too weak to mask on its own ("12 oak drive", "42 Wallaby") is masked when
 * one of these ends just before it ("I live at", "ship the order to", "address:").
 */
const ANNOUNCEMENT = linear(
  new RegExp(
    String.raw`(?:` +
      String.raw`\baddress(?:\s{1,8}is)?(?:\s{1,8}(?:at|on))?` +
      String.raw`|\b(?:home|house|apartment|flat)\s{1,8}is(?:\s{1,8}(?:at|on))?` +
      String.raw`|\b(?:live|lives|living|lived|located|based|reside|resides|residing|stay|stays|staying)\s{1,8}(?:at|on)` +
      String.raw`|\bmoved\s{1,8}(?:in\s{1,8})?to` +
      // "ship it to", "deliver the order to", "send everything over to".
      String.raw`|\b(?:ship|send|deliver|mail|post)(?:\s{1,8}(?:it|them|this|that|everything|(?:the|my|our|your)\s{1,8}[a-z]{1,24}))?(?:\s{1,8}over)?\s{1,8}to` +
      String.raw`|\bpick\s{1,8}(?:me|us|it|them)\s{1,8}up\s{1,8}(?:at|from)|\bdrop\s{1,8}(?:me|us|it|them)\s{1,8}off\s{1,8}at` +
      String.raw`|\bdirecci[oó]n|\bendere[cç]o|\badresse|\banschrift|\bmorada|\bdomicilio` +
      String.raw`)[\s:,]{0,4}`,
    'gi',
  ),
);

/**
 * A previous turn that asked for an address ("What's the delivery address?"), then at most
 * a speaker label: the answer on the next line is an address even in lower case.
 */
const ASKED = /(?:\baddress|\bwhere\s+do\s+you\s+live)\b[^\n]{0,30}\?\s*\n\s*(?:\w{1,12}:\s*)?$/i;
/** Characters searched for an address question in the previous turn. */
const QUESTION_WINDOW = 80;

/**
 * Where the address cues of one text are. Announcements are found in one scan up front
 * (they are rare, so this is cheaper than looking back from every candidate number);
 * questions are looked up per candidate, which only weak candidates need.
 */
export class AddressCues {
  private readonly announced = new Set<number>();

  constructor(private readonly text: string) {
    for (const m of allMatches(ANNOUNCEMENT, text)) {
      this.announced.add(m.index + m[0].length);
    }
  }

  /** Where announcements end, in text order. */
  announcements(): Iterable<number> {
    return this.announced;
  }

  /** Whether an address is announced right before `start` ("I live at 42 Wallaby"). */
  announcedAt(start: number): boolean {
    return this.announced.has(start);
  }

  /** Whether `start` follows an announcement or opens the answer to an address question. */
  cuedAt(start: number): boolean {
    return this.announcedAt(start) || hasContext(this.text, start, start, ASKED, QUESTION_WINDOW);
  }
}
