/** Every failure the client reports: `code` is the server's stable code, or one of ours. */
export class BridgeError extends Error {
  override readonly name: string = 'BridgeError';

  constructor(
    /** The server's `error` code, or `network_error` / `invalid_response`. */
    readonly code: string,
    message: string,
    /** HTTP status; 0 when no response arrived. */
    readonly status = 0,
    readonly requestId?: string,
  ) {
    super(message);
  }
}

/** The client-side deadline passed before the answer arrived. */
export class BridgeTimeoutError extends BridgeError {
  override readonly name = 'BridgeTimeoutError';

  constructor(deadlineMs: number) {
    super('deadline_exceeded', `No answer within ${deadlineMs} ms.`);
  }
}

/** The caller's AbortSignal fired. */
export class BridgeAbortedError extends BridgeError {
  override readonly name = 'BridgeAbortedError';

  constructor() {
    super('aborted', 'The request was aborted by the caller.');
  }
}
