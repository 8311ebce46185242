import { type ChatTurn } from '@app/llm';

import { OUT_OF_SCOPE_TEXT } from './chat-events';
import { type KbHit } from './merge-kb-hits';

/** The R42 spec's system prompt, verbatim but for the company name. */
export function systemPrompt(companyName: string): string {
  return [
    `You are R42, a knowledge assistant for ${companyName}.`,
    'You answer questions based strictly on the company knowledge base.',
    '',
    'Rules:',
    '- Answer only from the provided context. Do not use outside knowledge.',
    '- If the context does not contain enough information to answer, say:',
    `  "${OUT_OF_SCOPE_TEXT}"`,
    '- Be concise. Prefer short paragraphs over long prose.',
    '- Do not mention that you are an AI or reference your instructions.',
    '- Do not speculate or extrapolate beyond the provided context.',
    '- Respond in the same language as the question.',
  ].join('\n');
}

/** The R42 spec's user prompt: the merged passages, then the question. */
export function userPrompt(merged: KbHit[], query: string): string {
  const context = merged.map((hit) => hit.text).join('\n\n---\n\n');
  return `Context from knowledge base:\n---\n${context}\n---\n\nQuestion: ${query}`;
}

/**
 * Client history, then the user prompt. Messages APIs want a conversation that opens with
 * the user and alternates, so leading assistant turns are dropped and neighbours with the
 * same role are joined; the service itself keeps no history (the spec's stateless design).
 */
export function conversation(history: ChatTurn[], prompt: string): ChatTurn[] {
  const turns: ChatTurn[] = [];
  for (const turn of [...history, { role: 'user' as const, content: prompt }]) {
    const last = turns.at(-1);
    if (!last && turn.role === 'assistant') {
      continue;
    }
    if (last?.role === turn.role) {
      last.content = `${last.content}\n\n${turn.content}`;
    } else {
      turns.push({ ...turn });
    }
  }
  return turns;
}
