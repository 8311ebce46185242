import { type Command, InvalidArgumentError, Option } from 'commander';

/** A running server to ask instead of opening the database (`--url`, `--api-key`). */
export interface RemoteTarget {
  url: URL;
  apiKey?: string;
}

/** Options of a command that can target a running server. */
export interface RemoteOptions {
  url?: URL;
  apiKey?: string;
}

/** A bundle or search can take the whole /context deadline and more; never hang for ever. */
const REQUEST_TIMEOUT_MS = 60_000;
/** No answer of ours is near this; a bigger one is not read into memory. */
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
const MAX_URL_LENGTH = 2048;

/** `--url`: an http(s) base URL of the service, possibly behind a path prefix. */
export function parseServerUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('must be an http(s) URL, e.g. http://localhost:3004');
  }
  if (value.length > MAX_URL_LENGTH || !['http:', 'https:'].includes(url.protocol)) {
    throw new InvalidArgumentError('must be an http(s) URL, e.g. http://localhost:3004');
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new InvalidArgumentError('must hold no credentials, query or fragment (use --api-key)');
  }
  return url;
}

/**
 * Adds `--url` and `--api-key` (or CONTEXT_BRIDGE_API_KEY, which keeps the key out of the
 * process list) to a query command.
 */
export function withRemoteOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--url <url>',
        'ask this running server over HTTP instead of opening the database',
      ).argParser(parseServerUrl),
    )
    .addOption(new Option('--api-key <key>', 'API key for --url').env('CONTEXT_BRIDGE_API_KEY'));
}

/** The server to ask, when `--url` is given. */
export function remoteTarget(options: RemoteOptions): RemoteTarget | undefined {
  if (!options.url) {
    return undefined;
  }
  return { url: options.url, apiKey: options.apiKey };
}

/**
 * One call to the HTTP API; the parsed JSON answer, or an Error carrying the problem's
 * status, code and message (RFC 9457 body), never the key.
 */
export async function callServer<T>(target: RemoteTarget, path: string, body: unknown): Promise<T> {
  const url = new URL(target.url);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new Error(`${url.origin} did not answer (${cause})`);
  }
  const length = Number(response.headers.get('content-length') ?? 0);
  if (length > MAX_RESPONSE_BYTES) {
    throw new Error(`${url.origin} answered ${length} bytes, over ${MAX_RESPONSE_BYTES}`);
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${url.origin}${path} answered HTTP ${response.status} without JSON`);
  }
  if (!response.ok) {
    const problem = parsed as { error?: unknown; message?: unknown };
    const code = typeof problem.error === 'string' ? problem.error : 'error';
    const message = typeof problem.message === 'string' ? problem.message : '';
    throw new Error(`HTTP ${response.status} ${code}: ${message}`.trim());
  }
  return parsed as T;
}
