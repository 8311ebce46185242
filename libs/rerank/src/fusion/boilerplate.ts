import { byteBound, NUMBER_BYTES, sweepStale, TEXT_CACHE_TTL } from '@app/common';
import { LRUCache } from 'lru-cache';

import { rawTokens, STOP_WORDS, stripSpeaker, tokenize } from './text';

/**
 * Conversational pleasantries that carry nothing a downstream agent can use. Each entry is
 * a pattern over the normalised sentence (lower case, apostrophes dropped, punctuation turned
 * into single spaces), so "You're welcome!" is matched as `youre welcome`. Grouped by the
 * job they do in a conversation rather than by wording, so new phrasings have an obvious home.
 */
const PHRASES: readonly string[] = [
  // Greetings and openers.
  '(?:hi|hello|hey|hiya|howdy|greetings|good (?:morning|afternoon|evening))(?: there| again| everyone| all)?',
  'how are you(?: doing)?(?: today)?',
  '(?:i |we )?hope (?:you are|youre|youve been|all is|this finds you) (?:doing )?(?:well|good|great)',
  '(?:nice|good|great|a pleasure) to (?:meet|hear from|talk to|speak with|see) you',
  '(?:welcome to|you have reached|youve reached)',
  // Offers of help.
  '(?:how|what) (?:can|may|could) (?:i|we) (?:help|assist|do)(?: you)?(?: with| for you)?(?: today)?',
  '(?:is there )?anything else (?:that )?(?:i|we) (?:can|could|may) (?:help|assist|do)(?: you)?(?: with| for you)?(?: today)?',
  '(?:can|could|may|shall) (?:i|we) (?:help|assist) (?:you )?with (?:anything|something) else(?: today)?',
  '(?:do|did|would) you (?:need|like) (?:help with )?(?:anything|something) else(?: today)?',
  '(?:what else|how else) (?:can|could|may) (?:i|we) (?:help(?: you)?|assist(?: you)?|do for you)(?: with)?(?: today)?',
  '(?:(?:is|was|will|would) there (?:be )?)?anything else(?: you need| i can do| today| for (?:now|today))?$',
  '(?:do|would|will|did) you (?:need|want|like) (?:any )?(?:other|more|further|additional) (?:help|assistance)(?: today)?',
  '(?:any|need any) (?:other|more|further) (?:help|assistance)(?: you (?:want|need))?',
  '(?:let|tell) (?:me|us) know if (?:you need|theres|there is|we can do|i can do) (?:anything|something)(?: else)?(?: at all)?',
  '(?:please )?(?:feel free to|dont hesitate to) (?:reach out|contact us|call(?: us)?|ask|get in touch|message us|text us)(?: again| anytime| any time)?',
  '(?:happy|glad) (?:to|i could|we could|i was able to|we were able to) help(?: you| out| today)?',
  '(?:(?:it was|its) )?(?:my|our) pleasure',
  '(?:one|a) moment(?: please)?',
  '(?:please )?(?:hold on|bear with me)(?: (?:a|one) (?:moment|second|sec|minute))?',
  // Thanks and acknowledgements.
  '(?:thank(?:s| you)|thx|ty|many thanks)(?: (?:so|very) much| a (?:lot|bunch|ton)| kindly| again)*' +
    '(?: for (?:(?:all )?(?:your|the) (?:help|assistance|patience|time|business|call|support|understanding)' +
    '|reaching out|contacting us|calling(?: us)?|getting back to me|waiting|chatting|choosing us|shopping with us|everything|that|all(?: of)?(?: that| this)?))?',
  '(?:i |we )?(?:really |truly )?appreciate (?:it|that|you|your (?:help|patience|time|business)|the help)',
  'much appreciated',
  '(?:i am|im|we are|were) (?:so |very |really )?grateful(?: for (?:your|the) help)?',
  '(?:you|youve|you have) been (?:very |so |really |a (?:great |big )?)?(?:helpful|help)',
  '(?:youre|you are) (?:very |so |most )?welcome',
  'no (?:problem|worries|trouble)(?: at all)?',
  'not a problem',
  'of course',
  'sure thing',
  '(?:that|this|it) (?:works|will work|would work|sounds (?:good|great|fine|perfect))(?: for me)?',
  // Sign-offs.
  'have an? (?:great|good|nice|wonderful|lovely|fantastic|amazing|awesome|excellent|pleasant|safe) (?:day|evening|night|weekend|week|one|afternoon|morning|time|trip)(?: ahead)?',
  '(?:enjoy|have) (?:the rest of )?your (?:day|evening|weekend|week|trip|stay|meal)',
  '(?:good ?)?bye(?: now| bye| for now)?',
  'good ?night',
  '(?:take care|talk (?:to you )?(?:soon|later)|see you(?: soon| later| next time)?|until next time)',
  '(?:(?:best|kind|warm|warmest) )?regards|sincerely|cheers|all the best|best wishes',
  '(?:thats|that is|that was|that will be|that would be|thatll be|its) (?:all|everything|it)(?: i need(?:ed)?| for (?:now|today))*$',
  '(?:i )?(?:dont|do not) need anything (?:else|more)(?: right now| for now| today| at the moment)?',
  'not (?:right now|now|at (?:the|this) (?:moment|time)|today)$',
  'maybe (?:later|next time|another time)$',
  'i see$',
  'have fun',
  '(?:i think )?(?:im|i am|were|we are) (?:all )?(?:set|good|done)(?: for now| then)?$',
  'nothing else(?: for now| today)?',
];

/**
 * Single words that are pleasantry when they stand (almost) alone: "OK, great, thanks!" is
 * noise, but "great price on the sofa" keeps its content words and stays content.
 */
const FILLERS: ReadonlySet<string> = new Set(
  (
    'ok okay sure yes yeah yep yup alright great perfect awesome wonderful fantastic cool excellent ' +
    'nice lovely fine good right please much lot really absolutely certainly definitely indeed ' +
    'gotcha understood noted sounds hmm um uh ah oh wow thanks thank nope nothing correct enjoy'
  ).split(' '),
);

/**
 * All phrases as one alternation: one scan per sentence instead of one per phrase. Where two
 * phrases could start at the same word the earlier one in the list wins, which only matters
 * for coverage at the edges and never for whether a phrase was found.
 */
const PHRASE_PATTERN = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${PHRASES.map((p) => `(?:${p})`).join('|')})(?![\\p{L}\\p{N}])`,
  'gu',
);

/**
 * A name or business name left over after a pleasantry ("Have a great day, Alice!", "Thank
 * you for calling Oak and Iron, how can I help?") is still boilerplate. Up to this many
 * capitalised leftover words count as a name; a lower-case leftover ("your ticket is
 * confirmed, have a great trip") is content, except one word next to two covered ones.
 */
const MAX_NAME_WORDS = 3;

/** Splits a window into scoring units: one per sentence of each line, speaker labels removed. */
export function segments(content: string): string[] {
  return content
    .split(/\r?\n/)
    .map(stripSpeaker)
    .flatMap((line) => line.split(/(?<=[.!?])\s+/))
    .filter((s) => s.trim().length > 0);
}

/**
 * True when a sentence says nothing beyond a pleasantry. The rule: every content word is
 * covered by a phrase or filler word, or a phrase matched and what remains looks like a name
 * (never digits, which are order numbers, times and prices).
 */
export function isBoilerplate(sentence: string): boolean {
  const raw = rawTokens(sentence);
  if (raw.length === 0) {
    return false;
  }
  const tokens = raw.map((t) => t.toLowerCase());
  const normalised = tokens.join(' ');
  const starts: number[] = [];
  tokens.reduce((offset, t) => (starts.push(offset), offset + t.length + 1), 0);

  const covered = new Array<boolean>(tokens.length).fill(false);
  let phraseHit = false;
  for (const match of normalised.matchAll(PHRASE_PATTERN)) {
    const end = match.index + match[0].length;
    starts.forEach((s, i) => {
      if (s >= match.index && s < end) {
        covered[i] = true;
        phraseHit = true;
      }
    });
  }

  let coveredWords = 0;
  const leftover: string[] = [];
  tokens.forEach((t, i) => {
    const isContent = !STOP_WORDS.has(t) && (t.length > 1 || /\p{N}/u.test(t));
    if (!isContent) {
      return;
    }
    if (covered[i] || FILLERS.has(t)) {
      coveredWords++;
    } else {
      leftover.push(raw[i]);
    }
  });
  if (leftover.length === 0) {
    return true;
  }
  if (!phraseHit || leftover.some((t) => /\p{N}/u.test(t))) {
    return false;
  }
  const looksLikeName = leftover.every((t) => /^\p{Lu}/u.test(t));
  return looksLikeName
    ? leftover.length <= Math.min(coveredWords, MAX_NAME_WORDS)
    : leftover.length === 1 && coveredWords >= 2;
}

/**
 * The share of a window (0..1) that is pleasantry, weighted by tokens per sentence so a long
 * answer outweighs a short "Have a great day!". Speaker labels do not count.
 */
export function boilerplateShare(content: string): number {
  const cached = shareCache.get(content);
  if (cached !== undefined) {
    return cached;
  }
  const share = computeShare(content);
  shareCache.set(content, share);
  return share;
}

/**
 * The share is a property of the stored text, and the same windows come back turn after
 * turn, so it is memoised: uncached, the phrase scan cost ~5 ms of main-thread CPU per
 * /context request under load (profiled), more than the database queries. Keyed by the
 * whole text, which `/relevance` callers choose: bounded in bytes (about 15,000 windows of
 * 1,000 characters), not only in count. Exported for tests.
 */
export const shareCache = sweepStale(
  new LRUCache<string, number>({
    max: 20_000,
    ...byteBound<number>(32 * 1024 * 1024, () => NUMBER_BYTES),
    ...TEXT_CACHE_TTL, // an erased contact's windows expire too
  }),
);

function computeShare(content: string): number {
  let total = 0;
  let boiler = 0;
  for (const sentence of segments(content)) {
    const n = tokenize(sentence).length;
    total += n;
    if (n > 0 && isBoilerplate(sentence)) {
      boiler += n;
    }
  }
  return total === 0 ? 0 : boiler / total;
}
