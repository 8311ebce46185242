import { type SchemaObject } from '@nestjs/swagger';

/** A topic the answer drew on; the app renders it as a pill linking to the library. */
export interface Citation {
  id: string;
  title: string;
}

/** The spec's out-of-scope reply, sent whole (never streamed). */
export const OUT_OF_SCOPE_TEXT =
  "This doesn't appear to be covered in the knowledge base. You can browse the full library in the Knowledge section.";

/** Every SSE event `POST /chat` emits: the spec's four, plus `error` for a mid-stream failure. */
export type ChatEvent =
  | { type: 'chunk'; text: string }
  | { type: 'citations'; topics: Citation[] }
  | { type: 'out_of_scope'; text: string }
  | { type: 'error'; error: string; message: string }
  | { type: 'done' };

/** One SSE frame. Data-only (no `event:` line) so `EventSource.onmessage` sees every event. */
export function toSseFrame(event: ChatEvent): string {
  return `data: ${JSON.stringify(event)}\n\n`;
}

const text = { type: 'string' } as const;
const event = (type: ChatEvent['type'], properties: Record<string, SchemaObject> = {}) => ({
  type: 'object',
  required: ['type', ...Object.keys(properties)],
  properties: { type: { type: 'string', enum: [type] }, ...properties },
});

/** OpenAPI schemas of {@link ChatEvent}, one per member of the union (keep them in step). */
export const CHAT_EVENT_SCHEMAS: SchemaObject[] = [
  event('chunk', { text }),
  event('citations', {
    topics: {
      type: 'array',
      items: { type: 'object', required: ['id', 'title'], properties: { id: text, title: text } },
    },
  }),
  event('out_of_scope', { text }),
  event('error', { error: text, message: text }),
  event('done'),
];
