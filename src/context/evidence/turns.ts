/**
 * A conversation window is its turns as `sender: text` lines (see `chunkConversations`).
 * A message may itself hold newlines, so a line is not always a turn: a line starts a turn
 * only when its label is a known sender, otherwise it continues the turn above it.
 */

/** The longest label read as a sender; longer text before a colon is prose. */
const MAX_LABEL = 64;

/** The `sender` of a `sender: text` line, or undefined. */
export function speakerOf(line: string): string | undefined {
  const at = line.indexOf(': ');
  return at > 0 && at <= MAX_LABEL ? line.slice(0, at) : undefined;
}

/**
 * The labels that are senders: the one on a window's first line (a window always starts on
 * a turn), and any label that starts at least two different lines of the pool (a speaker
 * talks more than once; a "Note:" inside one message does not repeat, and the same line seen
 * twice in overlapping windows counts once). A sender missed here only makes turns coarser
 * (its lines join the turn above): trimming keeps more, it never cuts a speaker line off.
 */
export function knownSenders(contents: Iterable<string>): Set<string> {
  const senders = new Set<string>();
  const linesByLabel = new Map<string, Set<string>>();
  for (const content of contents) {
    content.split('\n').forEach((line, i) => {
      const speaker = speakerOf(line);
      if (speaker === undefined) {
        return;
      }
      const lines = linesByLabel.get(speaker) ?? new Set<string>();
      lines.add(line);
      linesByLabel.set(speaker, lines);
      if (i === 0 || lines.size >= 2) {
        senders.add(speaker);
      }
    });
  }
  return senders;
}

/** The turns of a window, each its lines joined back with `\n`, in order. */
export function splitTurns(content: string, senders: ReadonlySet<string>): string[] {
  const turns: string[] = [];
  for (const line of content.split('\n')) {
    const speaker = speakerOf(line);
    if (turns.length === 0 || (speaker !== undefined && senders.has(speaker))) {
      turns.push(line);
    } else {
      turns[turns.length - 1] += `\n${line}`;
    }
  }
  return turns;
}
