/** The server's transcript limit (`/context` and a call stream's events), in UTF-16 units. */
const MAX_TRANSCRIPT_CHARS = 8000;

/**
 * The newest {@link MAX_TRANSCRIPT_CHARS} units of a transcript, never starting on the second
 * half of an emoji: the server refuses a lone surrogate (400 `validation_failed`).
 */
export function transcriptTail(transcript: string): string {
  if (transcript.length <= MAX_TRANSCRIPT_CHARS) {
    return transcript;
  }
  const from = transcript.length - MAX_TRANSCRIPT_CHARS;
  const code = transcript.charCodeAt(from);
  return transcript.slice(code >= 0xdc00 && code <= 0xdfff ? from + 1 : from);
}
