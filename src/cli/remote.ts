import { type Command, InvalidArgumentError, Option } from 'commander';

/** A running server to ask instead of opening the database (`--url`, `--api-key`). */
export interface RemoteTarget {
  url: URL;
  apiKey?: string;
  /** `--insecure-http`: send the key over plain http to a host that is not this machine. */
  insecureHttp?: boolean;
}

/** Options of a command that can target a running server. */
export interface RemoteOptions {
  url?: URL;
  apiKey?: string;
  insecureHttp?: boolean;
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
    .addOption(new Option('--api-key <key>', 'API key for --url').env('CONTEXT_BRIDGE_API_KEY'))
    .addOption(
      new Option(
        '--insecure-http',
        'allow sending the API key over plain http to another host (a trusted network only)',
      ),
    );
}

/** The server to ask, when `--url` is given. */
export function remoteTarget(options: RemoteOptions): RemoteTarget | undefined {
  if (!options.url) {
    return undefined;
  }
  return { url: options.url, apiKey: options.apiKey, insecureHttp: options.insecureHttp };
}

/**
 * One call to the HTTP API; the parsed JSON answer, or an Error carrying the problem's
 * status, code and message (RFC 9457 body), never the key.
 */
export async function callServer<T>(
  target: RemoteTarget,
  path: string,
  body: unknown,
  maxResponseBytes = MAX_RESPONSE_BYTES,
): Promise<T> {
  const url = new URL(target.url);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  if (target.apiKey && url.protocol === 'http:' && !isLoopback(url.hostname)) {
    if (!target.insecureHttp) {
      throw new Error(
        `refusing to send the API key in clear to ${url.origin}: use https://, or ` +
          '--insecure-http on a trusted network',
      );
    }
  }
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
  const text = await readCapped(response, maxResponseBytes, url.origin);
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

/** The body as text, refused past `max` bytes whether or not the server said its length. */
async function readCapped(response: Response, max: number, origin: string): Promise<string> {
  const length = Number(response.headers.get('content-length') ?? 0);
  const over = () => new Error(`${origin} answered more than ${max} bytes`);
  if (length > max) {
    await response.body?.cancel();
    throw over();
  }
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const body = (response.body ?? new Blob([]).stream()) as ReadableStream<Uint8Array>;
  for await (const chunk of body) {
    bytes += chunk.byteLength;
    if (bytes > max) {
      await response.body?.cancel().catch(() => undefined);
      throw over();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** This machine: a key sent there in clear never crosses a network. */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
