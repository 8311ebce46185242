import { parseRetryAfter, withCeiling } from './abortable';
import { PodiumUnavailableError } from './podium-api.errors';
import { contactFromEnvelope, errorCode, parseJson, type PodiumContact } from './podium-wire';

/** What one `GET /contacts/{identifier}` came back with, before any retry decision. */
export type ContactResponse =
  | { kind: 'found'; contact: PodiumContact }
  | { kind: 'not_found' }
  /** 401: the access token is expired or revoked (`unauthenticated`). */
  | { kind: 'unauthenticated' }
  /** 403: the token lacks the `read_contacts` scope (`unauthorized`). */
  | { kind: 'forbidden' }
  /** 429 (`rate_limit`), with the wait Podium asked for when it said. */
  | { kind: 'rate_limited'; retryAfterMs?: number }
  /** Any other 4xx: our request is wrong (bad identifier, bad `podium-version`, wrong route). */
  | { kind: 'rejected'; status: number; code?: string };

/** Options for {@link PodiumContactsHttp}. */
export interface PodiumContactsHttpOptions {
  baseUrl: string;
  apiVersion?: string;
  requestTimeoutMs: number;
}

/**
 * One HTTP request to Podium's "Retrieve a contact" (`GET /v4/contacts/{identifier}`, scope
 * `read_contacts`). The identifier is a conversation uid, an E.164 phone number or an email,
 * URL-encoded into the path. Failures Podium is responsible for (5xx, malformed bodies, no
 * answer in time) throw {@link PodiumUnavailableError}; everything else is a typed answer.
 */
export class PodiumContactsHttp {
  constructor(private readonly options: PodiumContactsHttpOptions) {}

  async get(
    identifier: string,
    accessToken: string,
    signal?: AbortSignal,
  ): Promise<ContactResponse> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${accessToken}`,
      accept: 'application/json',
    };
    if (this.options.apiVersion) {
      headers['podium-version'] = this.options.apiVersion;
    }
    const bounded = withCeiling(this.options.requestTimeoutMs, signal);
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.options.baseUrl}/contacts/${encodeURIComponent(identifier)}`, {
        headers,
        signal: bounded,
      });
      // Read inside the try: the body can stall too, and the deadline covers it.
      text = await response.text();
    } catch (error) {
      throw new PodiumUnavailableError(
        bounded.aborted
          ? 'Podium did not answer before the deadline'
          : `Podium is unreachable (${(error as Error).name})`,
      );
    }
    const body = parseJson(text);
    const status = response.status;
    if (status === 200) {
      const contact = contactFromEnvelope(body);
      if (!contact) {
        throw new PodiumUnavailableError('Podium returned a contact response without `data`');
      }
      return { kind: 'found', contact };
    }
    if (status >= 500) {
      throw new PodiumUnavailableError(`Podium answered HTTP ${status}`);
    }
    const code = errorCode(body);
    switch (status) {
      case 401:
        return { kind: 'unauthenticated' };
      case 403:
        return { kind: 'forbidden' };
      case 429:
        return {
          kind: 'rate_limited',
          retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
        };
      case 404:
        // A missing route is a misconfigured base URL, not an unknown contact: saying "404"
        // to the bridge would claim every contact is unknown.
        return code === 'route_not_found'
          ? { kind: 'rejected', status, code }
          : { kind: 'not_found' };
      default:
        return { kind: 'rejected', status, code };
    }
  }
}
