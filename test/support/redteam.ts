import { type Client } from '@modelcontextprotocol/sdk/client/index.js';

import { message } from './auth-fixtures';
import { request, toolText } from './tenant-isolation-fixtures';

type Key = { key: string };

/**
 * Fields that differ between two equal answers for reasons other than data: time, request
 * and row ids (a window id hashes its contact), the call id the probe chose.
 */
const VOLATILE = new Set([
  'elapsed_ms',
  'stages',
  'request_id',
  'instance',
  'id',
  'uuid',
  'window_ids',
  'merged_into',
  'file_id',
  'call_id',
  'receipt_id',
  'requested_at',
  'age_ms',
  'started_at',
]);

function strip(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(strip);
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !VOLATILE.has(k))
        .map(([k, v]) => [k, strip(v)]),
    );
  }
  return value;
}

/** An answer as an attacker compares two: contact ids replaced, volatile fields dropped. */
export function comparable(text: string, contacts: readonly string[]): unknown {
  let out = text;
  for (const c of contacts) {
    out = out.split(c).join('CONTACT');
  }
  try {
    return strip(JSON.parse(out));
  } catch {
    return out;
  }
}

/** The query every probe asks: it matches both tenants' espresso histories. */
export const RT_QUERY = 'espresso machine leaking water grinder refund order';

/**
 * Everything key `k` can learn about `contact` by reading, route by route (HTTP, MCP, the
 * OpenAI vector-store shape, a call's opening): raw status and text, for diffing two contacts.
 */
export async function readViews(
  url: string,
  k: Key,
  mcp: Client,
  contact: string,
  query = RT_QUERY,
): Promise<Record<string, { status: number; text: string }>> {
  const auth = { authorization: `Bearer ${k.key}` };
  const post = (path: string, body: unknown) => request(`${url}${path}`, 'POST', auth, body);
  const tool = async (name: string, args: Record<string, unknown>) => ({
    status: 200,
    text: toolText(await mcp.callTool({ name, arguments: args })),
  });
  const views: Record<string, { status: number; text: string }> = {};
  const probes: Array<[string, () => Promise<{ status: number; text: string }>]> = [
    ['context', () => post('/context', { transcript: query, contact_uid: contact })],
    ['explain', () => post('/context', { transcript: query, contact_uid: contact, explain: true })],
    ['prompt', () => post('/context/prompt', { transcript: query, contact_uid: contact })],
    ['search', () => post('/search', { query, contact_uid: contact, top_k: 20 })],
    ['vector_store', () => post(`/v1/vector_stores/${contact}/search`, { query })],
    ['calls', () => post('/calls', { call_id: `rt_${contact}`, contact_uid: contact })],
    ['calls_end', () => post('/calls/end', { call_id: `rt_${contact}`, contact_uid: contact })],
    ['mcp_fetch', () => tool('context_fetch', { transcript: query, contact_uid: contact })],
    ['mcp_explain', () => tool('context_explain', { transcript: query, contact_uid: contact })],
    ['mcp_search', () => tool('search_history', { query, contact_uid: contact })],
  ];
  // One at a time: the answers are compared, so no probe may shed or miss its deadline.
  for (const [name, probe] of probes) {
    views[name] = await probe();
  }
  return views;
}

/** A's own conversation about the espresso machine, stored the same under any contact id. */
export function tenantATurns(contact: string) {
  return [
    message(contact, 'loc_a', 20, 'A-OWN my espresso machine grinder jams on every refund order.'),
    message(
      contact,
      'loc_a',
      21,
      'A-OWN we will ship a new grinder burr for the espresso machine.',
    ),
  ].map((m) => ({ ...m, conversation_uid: `conv_rt_${contact}` }));
}

/** B's history under a contact id A also uses (a phone number two tenants share). */
export function tenantBTurns(contact: string, mark: string) {
  return Array.from({ length: 6 }, (_, i) => ({
    ...message(
      contact,
      'loc_b',
      30 + i,
      `${mark} espresso machine leaking water, refund order ${i}.`,
    ),
    conversation_uid: `conv_rt_b_${contact}_${i % 3}`,
  }));
}
