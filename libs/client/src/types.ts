/**
 * The wire types, named from the generated contract (src/generated/openapi.ts, made from the
 * served OpenAPI document): a field the server adds or drops changes them on regeneration.
 */
import { type components, type operations } from './generated/openapi';

type Schemas = components['schemas'];

/**
 * `POST /context`'s body for a final chunk, what `fetchContext` sends. An interim hypothesis
 * (`is_final: false`) is answered 202 with no bundle: send it through `api`.
 */
export type ContextRequest = Omit<Schemas['ContextFetchRequestDto'], 'is_final'> & {
  is_final?: true;
};
/** `POST /context`'s answer for a final chunk. */
export type ContextBundle = Schemas['ContextBundle'];
/** `POST /context` with `is_final: false` (202): an interim transcript was taken. */
export type InterimAccepted = Schemas['InterimAccepted'];
export type BundleContact = ContextBundle['contact'];
export type HistoricalExcerpt = Schemas['HistoricalExcerpt'];
/** `explain: true` on `POST /context`: the pool, redactions per excerpt, a stage waterfall. */
export type ContextExplain = Schemas['ContextExplain'];
/** One pool window of the explain mode, with every signal that scored it. */
export type ExplainCandidate = Schemas['ExplainCandidate'];

/** `POST /context/prompt`'s body. */
export type PromptRequest = Schemas['ContextPromptRequestDto'];
/** `POST /context/prompt`: a system and a user message, under the token budget. */
export type BuiltPrompt = Schemas['ContextPromptResponseDto'];

/** `POST /chat`'s body. */
export type ChatRequest = Schemas['ChatRequestDto'];
/** The SSE events of `POST /chat`, a union on `type`. */
export type ChatEvent =
  operations['Chat_chatStream']['responses'][200]['content']['text/event-stream'];

/** Every error answer: an RFC 9457 problem whose `error` is the stable code. */
export type ProblemBody = Schemas['ErrorBody'];
