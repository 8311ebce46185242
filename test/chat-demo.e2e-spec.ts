import { DEMO_TOPICS } from '../src/demo/demo-kb';
import { bootTestApp, type TestApp } from './support/app';
import { postSse } from './support/sse';

type Event = { type: string; text?: string; topics?: Array<{ id: string; title: string }> };

/** A new user's first run: embedded defaults (extractive answers, local curriculum, demo KB). */
describe('POST /chat on the embedded defaults', () => {
  let t: TestApp;
  const chat = (query: string, userId = 'demo-employee') =>
    postSse<Event>(`${t.url}/chat`, { query, userId });

  beforeAll(async () => {
    t = await bootTestApp({ SEED_DEMO_DATA: 'true' });
  });
  afterAll(() => t?.close());

  it('streams an extractive answer, drawn only from the KB, with citations', async () => {
    const sut = await chat('How should I give feedback to a colleague?');
    const types = sut.events.map((e) => e.data.type);
    expect(types.filter((type) => type === 'chunk').length).toBeGreaterThan(1);
    expect(types.slice(-2)).toEqual(['citations', 'done']);
    const answer = sut.events
      .filter((e) => e.data.type === 'chunk')
      .map((e) => e.data.text)
      .join('');
    // Every sentence of the answer is a sentence of some demo topic: nothing generated.
    const kb = DEMO_TOPICS.map((topic) => `${topic.summary} ${topic.text}`).join(' ');
    const sentences = answer
      .split(/(?<=[.!?])\s+/)
      .map((s) => s.trim())
      .filter(Boolean);
    expect(sentences.length).toBeGreaterThan(0);
    for (const sentence of sentences) {
      expect(kb).toContain(sentence);
    }
    const topics = sut.events.find((e) => e.data.type === 'citations')!.data.topics!;
    expect(topics).toContainEqual({ id: 'topic_giving_feedback', title: 'Giving feedback' });
  });

  it('answers a question the demo KB does not cover with out_of_scope', async () => {
    const sut = await chat('Which river flows through Budapest?');
    expect(sut.events.map((e) => e.data.type)).toEqual(['out_of_scope', 'done']);
  });

  it('gives general results to an employee with no current week, and 404 to a stranger', async () => {
    const newHire = await chat('What happens in a tactical meeting?', 'demo-new-hire');
    expect(newHire.events.find((e) => e.data.type === 'citations')?.data.topics?.[0]?.id).toBe(
      'topic_tactical_meetings',
    );
    const stranger = await chat('What happens in a tactical meeting?', 'someone-else');
    expect(stranger.status).toBe(404);
    expect(stranger.json).toMatchObject({ error: 'user_not_found' });
  });
});
