import { type RedactionResult } from './redactor';
import { render, type Span } from './resolve';

/** A message of a conversation, oldest first, as it is shown to a reader. */
export interface Turn {
  sender: string;
  text: string;
}

/** Labels the redactor reads as a window's speaker label (see `speakerLabelEnd`). */
const LABEL = /^[A-Za-z0-9_ -]{1,24}$/;

/**
 * Masks consecutive messages as one conversation: a number or e-mail the customer split over
 * two messages ("415 555" then "2671") is read whole, as a window's excerpt reads it, and each
 * half is masked in its own message. Each message is then redacted on its own as well, so
 * nothing the single-message pass finds is lost. Linear: one pass over the joined text and
 * one per message.
 */
export function redactTurns(
  turns: readonly Turn[],
  redact: (text: string) => RedactionResult,
): string[] {
  const starts: number[] = [];
  let joined = '';
  turns.forEach((turn, i) => {
    const label = LABEL.test(turn.sender) ? turn.sender : 'turn';
    joined += `${i > 0 ? '\n' : ''}${label}: `;
    starts.push(joined.length);
    joined += turn.text;
  });
  const { entities } = redact(joined);
  return turns.map((turn, i) => {
    const start = starts[i];
    const end = start + turn.text.length;
    const pieces: Span[] = [];
    for (const e of entities) {
      if (e.end > start && e.start < end) {
        pieces.push({
          type: e.type,
          start: Math.max(e.start, start) - start,
          end: Math.min(e.end, end) - start,
        });
      }
    }
    return redact(render(turn.text, pieces)).text;
  });
}
