import { Redactor } from '@app/redaction';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { toolText } from './tenant-isolation-fixtures';
import { waitFor } from './wait';

/**
 * What a client of the service said (one message, carrying one word no other message has) and
 * the HTTP probes that ask every read route whether a word can still be read. Used by the
 * crash-recovery suite, where the server is a child process killed at random points.
 */
export interface Said {
  contact: string;
  conversation: string;
  occurred_at: string;
  sender: 'customer' | 'agent';
  word: string;
}

export const LOCATION = 'loc_crash';

/** The ingest record of `said` (the word inside ordinary words). */
export const record = (said: Said) => ({
  conversation_uid: said.conversation,
  contact_uid: said.contact,
  location_uid: LOCATION,
  channel: 'sms',
  occurred_at: said.occurred_at,
  sender: said.sender,
  text: `Please note ${said.word} about my order.`,
});

const redactor = new Redactor();
/** `n` in letters only (a-p): digits could read as an IBAN or a phone number. */
const letters = (n: number) =>
  [...n.toString(16)].map((d) => String.fromCharCode(97 + parseInt(d, 16))).join('');

/**
 * A word per (seed, n) that nothing else in the store can contain by chance, and that the
 * redaction of its message leaves readable (the routes return redacted text).
 */
export function wordOf(seed: number, n: number): string {
  for (let salt = 0; ; salt++) {
    const word = `zk${letters((seed * 7919 + n * 104729 + salt) % 2 ** 31)}q${letters(n)}`;
    if (redactor.redact(record({ word } as Said).text).text.includes(word)) {
      return word;
    }
  }
}

/**
 * The stored text an answer returns (never the query it echoes), and its status. A 503 (a
 * server just restarted, still busy recovering, sheds load) is asked again until it passes.
 */
async function postJson(url: string, body: unknown): Promise<{ status: number; text: string }> {
  return waitFor(`${new URL(url).pathname} answered without 503`, async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as Answer;
    return response.status === 503
      ? undefined
      : { status: response.status, text: storedText(json) };
  });
}

type Answer = {
  hits?: Array<{ content: string }>;
  historical_excerpts?: Array<{ content: string }>;
};
const storedText = (answer: Answer) =>
  [...(answer.hits ?? []), ...(answer.historical_excerpts ?? [])].map((h) => h.content).join('\n');

/** Which of `words` occur in `text`. */
const within = (text: string, words: readonly string[]) => words.filter((w) => text.includes(w));

/**
 * The read routes of one running server: `/search` (one contact's windows, and across
 * contacts), `/context` (the hybrid leg, BM25 included) and MCP's `search_history`.
 */
export class ReadRoutes {
  private constructor(
    private readonly url: string,
    private readonly mcp: Client,
  ) {}

  static async open(url: string): Promise<ReadRoutes> {
    const mcp = new Client({ name: 'crash-recovery', version: '1' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
    return new ReadRoutes(url, mcp);
  }

  async close(): Promise<void> {
    await this.mcp.close().catch(() => undefined);
  }

  /** The words of `contact` its windows hold (`/search`, top 100: every window of a small contact). */
  async contactWords(contact: string, words: readonly string[]): Promise<string[]> {
    const answer = await postJson(`${this.url}/search`, {
      query: `what did they say about ${words.slice(0, 50).join(' ')}`,
      contact_uid: contact,
      top_k: 100,
    });
    expect(answer.status).toBe(200);
    return within(answer.text, words);
  }

  /** Every route at once: which of `words` any of them still returns. */
  async anyRouteWords(contacts: readonly string[], words: readonly string[]): Promise<string[]> {
    if (words.length === 0) {
      return [];
    }
    const query = words.slice(0, 50).join(' ');
    const texts: string[] = [];
    const across = await postJson(`${this.url}/search`, { query, top_k: 100 });
    expect(across.status).toBe(200);
    texts.push(across.text);
    for (const contact of new Set(contacts)) {
      const own = await postJson(`${this.url}/search`, { query, contact_uid: contact, top_k: 100 });
      const context = await postJson(`${this.url}/context`, {
        transcript: query,
        contact_uid: contact,
        pool_k: 100,
      });
      expect([own.status, context.status]).toEqual([200, 200]);
      texts.push(own.text, context.text);
    }
    const tool = await this.mcp.callTool({
      name: 'search_history',
      arguments: { query, top_k: 100 },
    });
    texts.push(storedText(JSON.parse(toolText(tool)) as Answer));
    return within(texts.join('\n'), words);
  }
}
