import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

import { UID_PATTERN } from '../../common/api-docs';
import { type ContextBundle, type ContextRequestDto } from '../../context/context.dto';
import { type VapiDocumentDto, VapiServerMessageDto } from './vapi-request.dto';

/** ContextRequestDto's transcript limit: the newest words are kept. */
const MAX_TRANSCRIPT_CHARS = 8000;
const UID = new RegExp(UID_PATTERN);

export type VapiParse =
  { ok: true; request: ContextRequestDto } | { ok: false; reason: string; fields: string[] };

interface Turn {
  role: string;
  text: string;
}

/**
 * Vapi's body → a `/context` request. A failure names the offending fields only (paths and
 * rule names, never values): it is logged, and values would be customer text.
 */
export function parseVapiRequest(body: unknown): VapiParse {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, reason: 'body_not_object', fields: [] };
  }
  const dto = plainToInstance(VapiServerMessageDto, body);
  const errors = validateSync(dto, { forbidUnknownValues: false });
  if (errors.length > 0) {
    return { ok: false, reason: 'invalid_body', fields: fieldPaths(errors) };
  }
  const message = dto.message;
  const turns: Turn[] = message.messagesOpenAIFormatted?.length
    ? message.messagesOpenAIFormatted.map((m) => ({ role: m.role, text: m.content ?? '' }))
    : (message.messages ?? []).map((m) => ({
        role: m.role ?? '',
        text: m.message ?? m.content ?? '',
      }));
  const transcript = latestUserTurns(turns);
  if (!transcript) {
    return { ok: false, reason: 'no_user_turn', fields: [] };
  }
  const contactUid =
    message.customer?.externalId ?? message.customer?.number ?? message.call?.customer?.number;
  const callId = message.call?.id;
  return {
    ok: true,
    request: {
      transcript,
      ...(contactUid ? { contact_uid: contactUid } : {}),
      // A call id we could not use as a key only loses coalescing, not the answer.
      ...(callId && callId.length <= 128 && UID.test(callId) ? { call_id: callId } : {}),
    },
  };
}

/**
 * What the caller said since the assistant last spoke: the trailing run of user turns (a
 * system or tool message Vapi appends after them is skipped), newest words kept.
 */
export function latestUserTurns(turns: Turn[]): string {
  const run: string[] = [];
  for (let i = turns.length - 1; i >= 0; i--) {
    const { role, text } = turns[i];
    if (role === 'user') {
      if (text.trim()) {
        run.unshift(text.trim());
      }
    } else if (run.length > 0 && (role === 'assistant' || role === 'bot')) {
      break;
    }
  }
  // eslint-disable-next-line no-control-regex -- Postgres text rejects NUL
  const joined = run.join('\n').replace(/\u0000/g, '');
  return joined.length > MAX_TRANSCRIPT_CHARS ? joined.slice(-MAX_TRANSCRIPT_CHARS) : joined;
}

/**
 * Live fields a Vapi assistant never receives. The caller is identified by caller ID (or an
 * id the call was created with), which can be spoofed: whoever calls from a spoofed number
 * must not hear that customer's contact details read back.
 */
export const VAPI_WITHHELD_FIELDS: ReadonlySet<string> = new Set([
  'live_fields_available',
  'phone',
  'email',
]);

/**
 * The bundle as Vapi documents: the live contact first (it always wins), then each excerpt.
 * `contactRef` names the contact document: the contact id's keyed hash, since Vapi keeps the
 * documents in its call logs and the id is a phone number or an e-mail address.
 */
export function toVapiDocuments(bundle: ContextBundle, contactRef?: string): VapiDocumentDto[] {
  const documents: VapiDocumentDto[] = [];
  const contact = bundle.contact;
  if (contact.live_fields_available) {
    const fields = Object.entries(contact)
      .filter(([key, value]) => !VAPI_WITHHELD_FIELDS.has(key) && value !== null)
      .map(([key, value]) => `${key}: ${String(value)}`);
    documents.push({
      content: `Live CRM record of the caller (current; overrides any history).\n${fields.join('\n')}`,
      similarity: 1,
      uuid: `contact:${contactRef ?? 'unknown'}`,
    });
  }
  for (const excerpt of bundle.historical_excerpts) {
    documents.push({
      content: `Past ${excerpt.channel} conversation (${excerpt.occurred_at}):\n${excerpt.content}`,
      similarity: excerpt.rerank_score,
      uuid: excerpt.id,
    });
  }
  return documents;
}

function fieldPaths(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((e) => {
    const path = `${prefix}${e.property}`;
    const own = e.constraints ? [`${path}(${Object.keys(e.constraints).join(',')})`] : [];
    return [...own, ...fieldPaths(e.children ?? [], `${path}.`)];
  });
}
