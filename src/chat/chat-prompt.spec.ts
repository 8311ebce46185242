import { OUT_OF_SCOPE_TEXT } from './chat-events';
import { conversation, systemPrompt, userPrompt } from './chat-prompt';
import { type KbHit } from './merge-kb-hits';

describe('R42 prompts', () => {
  it('names the company and carries the spec’s out-of-scope sentence', () => {
    const sut = systemPrompt('Acme');
    expect(sut.startsWith('You are R42, a knowledge assistant for Acme.')).toBe(true);
    expect(sut).toContain(OUT_OF_SCOPE_TEXT);
    expect(sut).toContain('- Respond in the same language as the question.');
  });

  it('joins the passages with the spec’s separators, then the question', () => {
    const hits = [{ text: 'alpha' }, { text: 'beta' }] as KbHit[];
    expect(userPrompt(hits, 'why?')).toBe(
      'Context from knowledge base:\n---\nalpha\n\n---\n\nbeta\n---\n\nQuestion: why?',
    );
  });

  it('passes history through, opening with the user and alternating roles', () => {
    const sut = conversation(
      [
        { role: 'assistant', content: 'Hi! Ask me anything.' },
        { role: 'user', content: 'What is a circle?' },
        { role: 'assistant', content: 'A group of roles.' },
        { role: 'user', content: 'And a lead link?' },
      ],
      'PROMPT',
    );
    expect(sut).toEqual([
      { role: 'user', content: 'What is a circle?' },
      { role: 'assistant', content: 'A group of roles.' },
      { role: 'user', content: 'And a lead link?\n\nPROMPT' },
    ]);
    expect(conversation([], 'PROMPT')).toEqual([{ role: 'user', content: 'PROMPT' }]);
  });
});
