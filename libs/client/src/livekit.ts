import type { llm } from '@livekit/agents';

import { type CallStream } from './call-stream';
import { type ContextBridgeClient } from './client';
import { transcriptTail } from './transcript';
import { type ContextBundle, type ContextRequest } from './types';

export interface LiveKitBridgeOptions {
  client: ContextBridgeClient;
  /** The caller's contact_uid (e.g. from the SIP participant's attributes). */
  contactUid?: string | (() => string | undefined);
  /** The coalescing key: the room or call id. */
  callId?: string | (() => string | undefined);
  locationUid?: string;
  /**
   * How long the turn may wait for the bridge (ms): past it the turn goes on without our
   * context. Default 400, inside a voice turn's latency budget.
   */
  deadlineMs?: number;
  /** Renders the bundle into the message added to the turn; default {@link formatBundle}. */
  format?: (bundle: ContextBundle) => string | undefined;
  /** Told about every failure (timeout included) that left the turn without context. */
  onError?: (error: unknown) => void;
}

const DEFAULT_DEADLINE_MS = 400;
const valueOf = (v: string | (() => string | undefined) | undefined) =>
  typeof v === 'function' ? v() : v;

/** The bundle as one message: live fields first (they win), then the excerpts. */
export function formatBundle(bundle: ContextBundle): string | undefined {
  const lines: string[] = [];
  if (bundle.contact.live_fields_available) {
    const fields = Object.entries(bundle.contact)
      .filter(([key, value]) => key !== 'live_fields_available' && value !== null)
      .map(([key, value]) => `${key}: ${String(value)}`);
    lines.push(`Live CRM record of the caller (current, overrides history):\n${fields.join('\n')}`);
  }
  for (const excerpt of bundle.historical_excerpts) {
    lines.push(
      `Past ${excerpt.channel} conversation (${excerpt.occurred_at}):\n${excerpt.content}`,
    );
  }
  return lines.length > 0
    ? `Context relevant to the caller's last message:\n\n${lines.join('\n\n')}`
    : undefined;
}

/**
 * For `Agent.onUserTurnCompleted(turnCtx, newMessage)`: fetches the bundle for what the user
 * just said and adds it to this turn's chat context (LiveKit's RAG pattern). Adds nothing
 * when the bridge is late, fails, or has nothing: the reply must never wait past the
 * deadline nor fail because of us. Resolves true when context was added.
 */
export async function addBridgeContext(
  turnCtx: llm.ChatContext,
  newMessage: llm.ChatMessage,
  options: LiveKitBridgeOptions,
): Promise<boolean> {
  const transcript = newMessage.textContent?.trim();
  if (!transcript) {
    return false;
  }
  const contactUid = valueOf(options.contactUid);
  const callId = valueOf(options.callId);
  const request: ContextRequest = {
    transcript: transcriptTail(transcript),
    ...(contactUid ? { contact_uid: contactUid } : {}),
    ...(callId ? { call_id: callId } : {}),
    ...(options.locationUid ? { location_uid: options.locationUid } : {}),
  };
  return addBundle(
    turnCtx,
    options,
    options.client.fetchContext(request, {
      deadlineMs: options.deadlineMs ?? DEFAULT_DEADLINE_MS,
    }),
  );
}

/**
 * `addBridgeContext` over the call's stream: the bundle of the final transcript sent with
 * `stream.final` when the engine finalised it (feed `user_input_transcribed` events to
 * `stream.interim` / `stream.final`), so it is usually in hand when the turn completes; else
 * the turn's text is sent now. Adds nothing when late, failed or empty.
 */
export async function addStreamContext(
  turnCtx: llm.ChatContext,
  newMessage: llm.ChatMessage,
  options: Pick<LiveKitBridgeOptions, 'format' | 'onError'> & { stream: CallStream },
): Promise<boolean> {
  const pending = options.stream.turnBundle(newMessage.textContent?.trim() || undefined);
  if (!pending) {
    return false;
  }
  return addBundle(turnCtx, options, pending);
}

/** Adds the formatted bundle to the turn; a failure or an empty bundle adds nothing. */
async function addBundle(
  turnCtx: llm.ChatContext,
  options: Pick<LiveKitBridgeOptions, 'format' | 'onError'>,
  pending: Promise<ContextBundle>,
): Promise<boolean> {
  let bundle: ContextBundle;
  try {
    bundle = await pending;
  } catch (error) {
    options.onError?.(error);
    return false;
  }
  const content = (options.format ?? formatBundle)(bundle);
  if (!content) {
    return false;
  }
  turnCtx.addMessage({ role: 'assistant', content });
  return true;
}

/** The same as a ready-made `onUserTurnCompleted` body. */
export const bridgeTurnHook =
  (options: LiveKitBridgeOptions) =>
  async (turnCtx: llm.ChatContext, newMessage: llm.ChatMessage): Promise<void> => {
    await addBridgeContext(turnCtx, newMessage, options);
  };
