import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { type IngestRecord } from './ingest-record';
import { SHARED_DATA } from './sgd';

/**
 * LoCoMo (`../shared/data/locomo-dev`, README there): long dated histories between two people.
 * Each file is one contact, each `session_N` one conversation dated by `session_N_date_time`,
 * each turn one message. Only the turns are ingested (summaries, observations and events are
 * model-written annotations). Generic over the files: nothing here knows which pairs they are.
 */

/** Categories 1–4 (5, adversarial, has no evidence to hold). */
export const LOCOMO_CATEGORIES: Record<number, string> = {
  1: 'multi_hop',
  2: 'temporal',
  3: 'open_domain',
  4: 'single_hop',
};

export interface LocomoTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

export interface LocomoQuestion {
  contact_uid: string;
  question: string;
  category: string;
  /** Evidence turn ids that exist in the conversation (`D3:5`), deduplicated. */
  evidence: string[];
}

export type LocomoMessage = IngestRecord;

export interface LocomoSet {
  messages: LocomoMessage[];
  /** `contact_uid|dia_id` → the message it became. */
  turns: Map<string, LocomoMessage>;
  questions: LocomoQuestion[];
  files: number;
}

/** Month names as LoCoMo's session dates write them (lower case). */
export const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** "1:56 pm on 8 May, 2023" → epoch ms (UTC), or undefined when it does not parse. */
export function parseSessionDate(text: string): number | undefined {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(text);
  const month = m ? MONTHS.indexOf(m[5].toLowerCase()) : -1;
  if (!m || month < 0) {
    return undefined;
  }
  const hour = (Number(m[1]) % 12) + (m[3].toLowerCase() === 'pm' ? 12 : 0);
  return Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]));
}

/** A shared photo is part of what was said: its caption rides along in the message. */
export const turnText = (t: LocomoTurn) =>
  t.blip_caption ? `${t.text} [shares a photo: ${t.blip_caption}]` : t.text;

/** Evidence pointers as written ("D8:6; D9:17" occurs): every `D<session>:<turn>` in them. */
export function evidenceIds(raw: readonly string[]): string[] {
  const ids = raw.flatMap((e) => [...e.matchAll(/D(\d+):(\d+)/g)].map((m) => `D${m[1]}:${m[2]}`));
  return [...new Set(ids)];
}

const CHANNELS = ['sms', 'call', 'webchat'] as const;
const TURN_MS = 30_000;

/** Every `conv-*.json` in `dir`: messages in the ingest format and the questions of 1–4. */
export function loadLocomo(dir = join(SHARED_DATA, 'locomo-dev')): LocomoSet {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const messages: LocomoMessage[] = [];
  const turns = new Map<string, LocomoMessage>();
  const questions: LocomoQuestion[] = [];
  for (const file of files) {
    const data = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
    const contact = `locomo-${file.replace(/\.json$/, '')}`;
    const sessions = Object.keys(data)
      .map((k) => /^session_(\d+)$/.exec(k)?.[1])
      .filter((n): n is string => n !== undefined)
      .sort((a, b) => Number(a) - Number(b));
    let previous = Date.UTC(2023, 0, 1);
    for (const n of sessions) {
      // An unparseable date keeps the order: one day after the previous session.
      const date = data[`session_${n}_date_time`];
      const start = (typeof date === 'string' ? parseSessionDate(date) : undefined) ?? previous;
      previous = start + 86_400_000;
      (data[`session_${n}`] as LocomoTurn[]).forEach((t, i) => {
        const message: LocomoMessage = {
          conversation_uid: `${contact}-s${n}`,
          contact_uid: contact,
          location_uid: 'loc-locomo',
          channel: CHANNELS[Number(n) % CHANNELS.length],
          occurred_at: new Date(start + i * TURN_MS).toISOString(),
          sender: t.speaker,
          text: turnText(t),
        };
        messages.push(message);
        turns.set(`${contact}|${t.dia_id}`, message);
      });
    }
    const qa = (data.qa ?? []) as Array<{
      question: string;
      category: number;
      evidence?: string[];
    }>;
    for (const q of qa) {
      const category = LOCOMO_CATEGORIES[q.category];
      const evidence = evidenceIds(q.evidence ?? []).filter((id) => turns.has(`${contact}|${id}`));
      if (category && evidence.length > 0) {
        questions.push({ contact_uid: contact, question: q.question, category, evidence });
      }
    }
  }
  return { messages, turns, questions, files: files.length };
}
