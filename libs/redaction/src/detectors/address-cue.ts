import { hasContext } from './detector';

/**
 * Words that announce an address: what a speaker says right before giving one. A street
 * that would be too weak to mask on its own ("12 oak drive", "42 Wallaby") is masked when
 * one of these ends just before it. Anchored at the end, so only the words immediately
 * before the number count ("I live at", "ship the order to", "address:").
 */
const ANNOUNCEMENT = new RegExp(
  String.raw`(?:` +
    String.raw`\baddress(?:\s+is)?(?:\s+(?:at|on))?` +
    String.raw`|\b(?:home|house|apartment|flat)\s+is(?:\s+(?:at|on))?` +
    String.raw`|\b(?:live|lives|living|lived|located|based|reside|resides|residing|stay|stays|staying)\s+(?:at|on)` +
    String.raw`|\bmoved\s+(?:in\s+)?to` +
    // "ship it to", "deliver the order to", "send everything over to".
    String.raw`|\b(?:ship|send|deliver|mail|post)(?:\s+(?:it|them|this|that|everything|(?:the|my|our|your)\s+[a-z]+))?(?:\s+over)?\s+to` +
    String.raw`|\bpick\s+(?:me|us|it|them)\s+up\s+(?:at|from)|\bdrop\s+(?:me|us|it|them)\s+off\s+at` +
    String.raw`|\bdirecci[oó]n|\bendere[cç]o|\badresse|\banschrift|\bmorada|\bdomicilio` +
    String.raw`)[\s:,]{0,4}$`,
  'i',
);

/**
 * A previous turn that asked for an address ("What's the delivery address?"), then at most
 * a speaker label: the answer on the next line is an address even in lower case.
 */
const ASKED = /(?:\baddress|\bwhere\s+do\s+you\s+live)\b[^\n]{0,30}\?\s*\n\s*(?:\w{1,12}:\s*)?$/i;

/** Literal pre-check, far cheaper than the announcement pattern on text without one. */
const CUE_HINT =
  /address|home|house|apartment|flat|live|located|based|resid|stay|moved|ship|send|deliver|mail|post|pick|drop|direcci|endere|adresse|anschrift|morada|domicilio/i;

/** Characters before a candidate searched for an announcement: a short clause. */
const ANNOUNCEMENT_WINDOW = 40;
/** Characters searched for an address question in the previous turn. */
const QUESTION_WINDOW = 80;

/** Whether `text` can hold an address announcement at all (cheap; call once per text). */
export function mayHoldAddressCue(text: string): boolean {
  return CUE_HINT.test(text);
}

/** Whether an address is announced right before `start` ("I live at", "ship it to"). */
export function followsAddressAnnouncement(text: string, start: number): boolean {
  return hasContext(text, start, start, ANNOUNCEMENT, ANNOUNCEMENT_WINDOW);
}

/** Whether `start` follows an announcement or opens the answer to an address question. */
export function followsAddressCue(text: string, start: number): boolean {
  return (
    followsAddressAnnouncement(text, start) ||
    hasContext(text, start, start, ASKED, QUESTION_WINDOW)
  );
}
