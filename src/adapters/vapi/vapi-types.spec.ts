import type { Vapi } from '@vapi-ai/server-sdk';
import { type FastifyRequest } from 'fastify';

import { type VapiController } from './vapi.controller';
import { parseVapiRequest } from './vapi-mapping';
import {
  type VapiCallDto,
  type VapiCustomerDto,
  type VapiMessageItemDto,
  type VapiOpenAiMessageDto,
} from './vapi-request.dto';

/**
 * Compile-time contract with `@vapi-ai/server-sdk`'s published types (`npm run typecheck`
 * compiles this file): if Vapi renames or retypes a field we read or answer, this file stops
 * compiling. Jest (swc) does not type-check, so the runtime part only proves the wiring.
 */
type Handler = (
  body: Vapi.ServerMessage,
) => Promise<Vapi.ServerMessageResponseKnowledgeBaseRequest>;
export const handlerFitsVapi =
  (controller: VapiController): Handler =>
  (body) =>
    controller.knowledgeBase(body, performance.now(), {} as FastifyRequest);

// Each field we read exists in Vapi's request types with a type our DTO accepts.
type KbRequest = Vapi.ServerMessageKnowledgeBaseRequest;
export const readsOpenAi = (
  m: KbRequest['messagesOpenAIFormatted'][number],
): VapiOpenAiMessageDto => m;
export const readsMessages = (m: Pick<Vapi.UserMessage, 'role' | 'message'>): VapiMessageItemDto =>
  m;
export const readsCustomer = (
  c: Pick<NonNullable<KbRequest['customer']>, 'externalId' | 'number'>,
): VapiCustomerDto => c;
export const readsCall = (
  c: Pick<NonNullable<KbRequest['call']>, 'id' | 'customer'>,
): VapiCallDto => c;
export const typeIsKb: KbRequest['type'] = 'knowledge-base-request';

describe("Vapi's published types", () => {
  it('type an example request that the mapping reads as Vapi means it', () => {
    const message: KbRequest = {
      type: typeIsKb,
      messagesOpenAIFormatted: [
        { role: 'assistant', content: 'How can I help?' },
        { role: 'user', content: 'My order' },
        { role: 'user', content: 'has not arrived.' },
      ],
      customer: { number: '+14155550100' },
      call: { id: 'call-1', orgId: 'o', createdAt: 'now', updatedAt: 'now' },
    };
    const sut = parseVapiRequest({ message } satisfies Vapi.ServerMessage);
    expect(sut).toEqual({
      ok: true,
      request: {
        transcript: 'My order\nhas not arrived.',
        contact_uid: '+14155550100',
        call_id: 'call-1',
      },
    });
  });
});
