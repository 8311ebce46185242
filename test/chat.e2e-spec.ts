import { OUT_OF_SCOPE_TEXT } from '../src/chat/chat-events';
import { DEMO_TOPICS } from '../src/demo/demo-kb';
import {
  type FakeAnthropic,
  fakeDeltas,
  fakeModelReply,
  startFakeAnthropic,
} from './fakes/anthropic-server';
import {
  curriculumCollections,
  type FakePocketBase,
  startFakePocketBase,
} from './fakes/pocketbase-server';
import { bootTestApp, postJson, type TestApp } from './support/app';
import { postSse } from './support/sse';

type Event = {
  type: string;
  text?: string;
  topics?: Array<{ id: string; title: string }>;
  error?: string;
};

/** Two topics about the same thing in different themes: only the boost tells them apart. */
const BUDDY_TOPICS = [
  {
    topic_id: 'topic_buddy_roles',
    title: 'Onboarding buddies (roles track)',
    theme_id: 'theme_roles',
    summary: 'An onboarding buddy helps a new colleague settle in during the first weeks.',
    text: 'An onboarding buddy helps a new colleague settle in during their first weeks. The buddy answers questions, explains how the team works, and checks in with the new colleague every few days.',
  },
  {
    topic_id: 'topic_buddy_feedback',
    title: 'Onboarding buddies (feedback track)',
    theme_id: 'theme_feedback',
    summary: 'The onboarding buddy helps each new colleague settle in during the first weeks.',
    text: 'The onboarding buddy helps each new colleague settle in during their first weeks. The buddy answers their questions, explains how the team works, and checks in with the new colleague every few days.',
  },
];
const BUDDY_QUESTION = 'What does an onboarding buddy do for a new colleague?';
const ROLES_QUESTION = 'What defines a role in a holacratic organisation?';
const OFF_TOPIC_QUESTION = 'What is the boiling point of mercury in kelvin at sea level?';

describe('POST /chat (R42) on Anthropic and PocketBase test servers', () => {
  let anthropic: FakeAnthropic;
  let pocketbase: FakePocketBase;
  let t: TestApp;
  const chat = (body: Record<string, unknown>, stopWhen?: (e: Event) => boolean) =>
    postSse<Event>(`${t.url}/chat`, body, { stopWhen });
  const types = (events: Array<{ data: Event }>) => events.map((e) => e.data.type);
  const answerText = (events: Array<{ data: Event }>) =>
    events
      .filter((e) => e.data.type === 'chunk')
      .map((e) => e.data.text)
      .join('');

  beforeAll(async () => {
    anthropic = await startFakeAnthropic({ apiKey: 'sk-ant-test', deltaDelayMs: 2 });
    pocketbase = await startFakePocketBase({
      superuser: { email: 'ops@example.com', password: 'pb-secret-pass' },
      collections: curriculumCollections({
        themes: [
          { id: 'theme_roles', name: 'Roles' },
          { id: 'theme_feedback', name: 'Feedback' },
          { id: 'theme_meetings', name: 'Meetings' },
        ],
        weeks: [
          { id: 'week_roles', theme: 'theme_roles' },
          { id: 'week_feedback', theme: 'theme_feedback' },
          { id: 'week_meetings', theme: 'theme_meetings' },
        ],
        states: [
          { id: 'state_1', user: 'u_roles', current_week: 'week_roles' },
          { id: 'state_2', user: 'u_feedback', current_week: 'week_feedback' },
          { id: 'state_3', user: 'u_meetings', current_week: 'week_meetings' },
          { id: 'state_4', user: 'u_new', current_week: '' },
        ],
      }),
    });
    t = await bootTestApp({
      LLM_PROVIDER: 'anthropic',
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: anthropic.baseURL,
      CURRICULUM_PROVIDER: 'pocketbase',
      POCKETBASE_URL: pocketbase.url,
      POCKETBASE_ADMIN_EMAIL: 'ops@example.com',
      POCKETBASE_ADMIN_PASSWORD: 'pb-secret-pass',
      CHAT_COMPANY_NAME: 'Acme',
    });
    const ingest = await postJson<{ failed: unknown[] }>(`${t.url}/ingest/kb`, [
      ...DEMO_TOPICS,
      ...BUDDY_TOPICS,
    ]);
    expect(ingest.body.failed).toEqual([]);
  });
  afterAll(async () => {
    await t?.close();
    await anthropic?.close();
    await pocketbase?.close();
  });
  beforeEach(() => anthropic.configure({ deltaDelayMs: 2 }));

  it('checkpoint 1: a covered question retrieves the topic and the answer draws on it', async () => {
    const before = anthropic.requests.length;
    const sut = await chat({ query: ROLES_QUESTION, userId: 'u_roles' });
    expect(sut.status).toBe(200);
    const request = anthropic.requests[before].body as {
      model: string;
      max_tokens: number;
      system: string;
      messages: Array<{ role: string; content: string }>;
    };
    expect(request).toMatchObject({ model: 'claude-haiku-4-5-20251001', max_tokens: 1000 });
    expect(request.system.startsWith('You are R42, a knowledge assistant for Acme.')).toBe(true);
    const prompt = request.messages.at(-1)!.content;
    const roles = DEMO_TOPICS[0];
    expect(prompt.includes(roles.summary) || prompt.includes(roles.text.slice(0, 60))).toBe(true);
    const citations = sut.events.find((e) => e.data.type === 'citations')!.data.topics!;
    expect(citations[0]).toEqual({ id: roles.topic_id, title: roles.title });
    expect(prompt.endsWith(`Question: ${ROLES_QUESTION}`)).toBe(true);
    expect(answerText(sut.events)).toBe(fakeModelReply(request));
    expect(answerText(sut.events)).toMatch(/holacratic/i);
    expect(types(sut.events).slice(-2)).toEqual(['citations', 'done']);
  });

  it('checkpoint 2: an uncovered question gets out_of_scope, no citations, and no model call', async () => {
    const before = anthropic.requests.length;
    const sut = await chat({ query: OFF_TOPIC_QUESTION, userId: 'u_roles' });
    expect(sut.events.map((e) => e.data)).toEqual([
      { type: 'out_of_scope', text: OUT_OF_SCOPE_TEXT },
      { type: 'done' },
    ]);
    expect(anthropic.requests.length).toBe(before);
  });

  it('checkpoint 3: citations are the unique topics whose passages the model was given', async () => {
    const before = anthropic.requests.length;
    const sut = await chat({
      query: 'How should I give corrective feedback to a colleague?',
      userId: 'u_new',
    });
    const prompt = (
      anthropic.requests[before].body as { messages: Array<{ content: string }> }
    ).messages.at(-1)!.content;
    const passages = prompt
      .split('Context from knowledge base:\n---\n')[1]
      .split('\n---\n\nQuestion:')[0]
      .split('\n\n---\n\n');
    const all = [...DEMO_TOPICS, ...BUDDY_TOPICS];
    const topicOf = (passage: string) =>
      all.find((topic) => topic.text.includes(passage.slice(0, 80)) || topic.summary === passage)!;
    const citations = sut.events.find((e) => e.data.type === 'citations')!.data.topics!;
    expect(citations).toEqual(
      passages.map((p) => ({ id: topicOf(p).topic_id, title: topicOf(p).title })),
    );
    expect(new Set(citations.map((c) => c.id)).size).toBe(citations.length);
    expect(citations[0].title).toMatch(/feedback/i);
  });

  it('checkpoint 4: chunks reach the client while the model is still generating', async () => {
    anthropic.configure({ deltaDelayMs: 40 });
    const sut = await chat({ query: ROLES_QUESTION, userId: 'u_roles' });
    const chunks = sut.events.filter((e) => e.data.type === 'chunk');
    const done = sut.events.find((e) => e.data.type === 'done')!;
    // 40 ms per delta and ~40 deltas: a batched body would deliver every chunk at once.
    expect(chunks.length).toBeGreaterThan(10);
    expect(done.at - chunks[0].at).toBeGreaterThan(400);
    const gaps = chunks.slice(1).map((c, i) => c.at - chunks[i].at);
    expect(gaps.filter((gap) => gap >= 20).length).toBeGreaterThan(chunks.length / 2);
  });

  it('checkpoint 5: the current-week theme lifts its topic over an equally relevant one', async () => {
    const firstCitation = async (userId: string) =>
      (await chat({ query: BUDDY_QUESTION, userId })).events.find(
        (e) => e.data.type === 'citations',
      )!.data.topics![0].id;
    expect(await firstCitation('u_roles')).toBe('topic_buddy_roles');
    expect(await firstCitation('u_feedback')).toBe('topic_buddy_feedback');
  });

  it('checkpoint 6: a week with no matching topic, or no week at all, still gets general results', async () => {
    for (const userId of ['u_meetings', 'u_new']) {
      const sut = await chat({ query: BUDDY_QUESTION, userId });
      const topics = sut.events
        .find((e) => e.data.type === 'citations')!
        .data.topics!.map((c) => c.id);
      expect(topics).toEqual(expect.arrayContaining(['topic_buddy_roles', 'topic_buddy_feedback']));
      expect(types(sut.events).at(-1)).toBe('done');
    }
  });

  it('passes client history through to the model', async () => {
    const before = anthropic.requests.length;
    await chat({
      query: 'And who assigns people to roles?',
      userId: 'u_roles',
      history: [
        { role: 'user', content: 'What is a circle?' },
        { role: 'assistant', content: 'A circle is a group of roles sharing a purpose.' },
      ],
    });
    const messages = (
      anthropic.requests[before].body as { messages: Array<{ role: string; content: string }> }
    ).messages;
    expect(messages.slice(0, 2)).toEqual([
      { role: 'user', content: 'What is a circle?' },
      { role: 'assistant', content: 'A circle is a group of roles sharing a purpose.' },
    ]);
    expect(messages[2].role).toBe('user');
  });

  it('turns a reply under 20 tokens into out_of_scope with no citations', async () => {
    anthropic.script({ kind: 'short' });
    const sut = await chat({ query: ROLES_QUESTION, userId: 'u_roles' });
    expect(types(sut.events)).toEqual(['out_of_scope', 'done']);
  });

  it('a mid-stream model error becomes an error event followed by done', async () => {
    anthropic.script({ kind: 'error_mid_stream', afterDeltas: 30 });
    const sut = await chat({ query: ROLES_QUESTION, userId: 'u_roles' });
    expect(types(sut.events)).toContain('chunk');
    expect(sut.events.slice(-2).map((e) => e.data)).toEqual([
      expect.objectContaining({ type: 'error', error: 'llm_failed' }),
      { type: 'done' },
    ]);
    expect(types(sut.events)).not.toContain('citations');
  });

  it('a client that disconnects aborts the upstream model request', async () => {
    anthropic.configure({ deltaDelayMs: 50 });
    const before = anthropic.requests.length;
    await chat({ query: ROLES_QUESTION, userId: 'u_roles' }, (e) => e.type === 'chunk');
    const upstream = anthropic.requests[before];
    await upstream.settled;
    expect(upstream.disconnected).toBe(true);
    expect(upstream.deltasSent).toBeLessThan(fakeDeltas(fakeModelReply(upstream.body)).length);
  });

  it('answers pre-stream errors as JSON with the spec’s codes', async () => {
    const short = await chat({ query: 'hi', userId: 'u_roles' });
    expect(short.status).toBe(400);
    expect(short.json).toMatchObject({ error: 'query_too_short' });
    const unknown = await chat({ query: ROLES_QUESTION, userId: 'u_nobody' });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ error: 'user_not_found' });
    const invalid = await chat({ query: ROLES_QUESTION });
    expect(invalid.status).toBe(400);
    expect(invalid.json).toMatchObject({ error: 'validation_failed' });
  });

  it('sends headers that keep proxies from buffering the stream', async () => {
    const sut = await chat({ query: ROLES_QUESTION, userId: 'u_roles' });
    expect(sut.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(sut.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(sut.headers.get('x-accel-buffering')).toBe('no');
  });
});
