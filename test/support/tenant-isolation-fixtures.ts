import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import { generateApiKey } from '../../src/config/api-key-entries';
import { message } from './auth-fixtures';

/** Fixtures of test/tenant-isolation.e2e-spec.ts (the two tenants come from adapter-fixtures). */

/** Every text of tenant B carries this marker: no answer to tenant A may contain it. */
export const B_MARK = 'B-SECRET';

/** One Vapi assistant per tenant, each secret bound to its tenant's location. */
export const assistantA = generateApiKey('assistant-a', ['loc_a']);
export const assistantB = generateApiKey('assistant-b', ['loc_b']);

/** B's messages that carry a Podium message uid (HISTORY's have none). */
export const B_UID_MESSAGES = [
  {
    ...message('ctc_b1', 'loc_b', 7, `${B_MARK} order 4471 espresso grinder refund approved.`),
    conversation_uid: 'conv_b_orders',
    message_uid: 'msg_b_0001',
  },
];

/** The official MCP client over Streamable HTTP, authenticated with one of our API keys. */
export async function mcpClient(url: string, key: string): Promise<Client> {
  const client = new Client({ name: 'tenant-isolation', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

/** A tool result's text (every tool answers one JSON text block, errors included). */
export function toolText(result: unknown): string {
  const [first] = (result as CallToolResult).content;
  return first?.type === 'text' ? first.text : '';
}

/** A Vapi knowledge-base-request for `userTurn`, from `customer` when given. */
export function vapiBody(userTurn: string, customer?: { externalId?: string; number?: string }) {
  return {
    message: {
      type: 'knowledge-base-request',
      messagesOpenAIFormatted: [
        { role: 'assistant', content: 'How can I help?' },
        { role: 'user', content: userTurn },
      ],
      call: { id: 'c0ffee00-0000-4000-8000-0000000000aa' },
      ...(customer ? { customer } : {}),
    },
  };
}

/** One HTTP call: status, raw text (to search for leaks) and the parsed JSON on demand. */
export async function request(url: string, method: string, headers: object, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
}
