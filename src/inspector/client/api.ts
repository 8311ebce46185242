import { type Bundle, type ContactSummary } from './types';

/** A failed call, with the API's stable code when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Calls to the key-protected API; the key lives only in this object (the tab's memory). */
export class InspectorApi {
  key = '';

  private headers(): Record<string, string> {
    return {
      'content-type': 'application/json',
      ...(this.key ? { authorization: `Bearer ${this.key}` } : {}),
    };
  }

  private async call<T>(path: string, init: RequestInit = {}): Promise<T> {
    const response = await fetch(path, { ...init, headers: this.headers(), credentials: 'omit' });
    const body = (await response.json().catch(() => ({}))) as { error?: string; message?: string };
    if (!response.ok) {
      throw new ApiError(
        response.status,
        body.error ?? `http_${response.status}`,
        body.message ?? response.statusText,
      );
    }
    return body as T;
  }

  contacts(limit = 200): Promise<{ contacts: ContactSummary[]; listable: boolean }> {
    return this.call(`/contacts?limit=${limit}`);
  }

  explain(request: {
    transcript: string;
    contact_uid?: string;
    pool_k?: number;
    final_k?: number;
    timeout_ms?: number;
  }): Promise<Bundle> {
    return this.call('/context', {
      method: 'POST',
      body: JSON.stringify({ ...request, explain: true }),
    });
  }
}
