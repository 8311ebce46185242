/** Longest vendor message kept in an error: enough for a reason, not for a payload echo. */
const MAX_VENDOR_TEXT = 200;

/** Things shaped like API keys (`sk-…`, `sk-ant-…`, bearer tokens) never leave in a message. */
const KEY_LIKE = /\b(?:sk-[A-Za-z0-9_-]{6,}|Bearer\s+\S+)/g;

/**
 * A vendor's error message made safe for logs and for the client's SSE `error` event: the
 * configured key and anything key-shaped are replaced, whitespace is folded and the text is
 * capped. Vendors do not echo keys today; this keeps it that way if one ever does.
 */
export function safeVendorText(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) {
      out = out.split(secret).join('[redacted]');
    }
  }
  out = out.replace(KEY_LIKE, '[redacted]').replace(/\s+/g, ' ').trim();
  return out.length > MAX_VENDOR_TEXT ? `${out.slice(0, MAX_VENDOR_TEXT - 1)}…` : out;
}
