import { TEXT_CACHE_TTL_MS } from '@app/common';

import { boilerplateShare, isBoilerplate, segments, shareCache } from './boilerplate';

describe('isBoilerplate', () => {
  it.each([
    'Thanks for reaching out!',
    'Have a great day!',
    'Is there anything else I can help you with?',
    "You're welcome.",
    'Hi there!',
    'No, thank you so much.',
    "That's all for now, thanks.",
    'OK, sounds good.',
    'Have a great day, Alice!',
    'Thank you for calling Oak and Iron Furniture, how can I help?',
    'Goodbye and take care.',
  ])('treats %p as boilerplate', (sentence) => {
    expect(isBoilerplate(sentence)).toBe(true);
  });

  it.each([
    'Sure, my order number is ORD-48213.',
    'Thanks, the replacement leg arrived scratched.',
    'Hi, I ordered a walnut dining table last week and it still shows as processing.',
    'Great price on the leather sofa.',
    'Your ticket is confirmed, have a great trip.',
    'Thanks for the update on the delivery.',
    'Yes please, 7pm.',
    'Is there anything else wrong with the table?',
  ])('keeps %p as content', (sentence) => {
    expect(isBoilerplate(sentence)).toBe(false);
  });
});

describe('boilerplateShare', () => {
  it('splits windows into sentences without the speaker labels', () => {
    expect(segments('agent: Found it. The table ships March 20.\ncustomer: OK!')).toEqual([
      'Found it.',
      'The table ships March 20.',
      'OK!',
    ]);
  });

  it('is 1 for a window of pleasantries and 0 for a window of content', () => {
    const pleasantries = [
      'agent: Thanks for reaching out, happy to help!',
      "customer: Thank you, that's all.",
      'agent: Have a wonderful day!',
    ].join('\n');
    const content = [
      'customer: The dining table arrived with a scratched leg.',
      'agent: A replacement leg ships in five business days.',
    ].join('\n');
    expect(boilerplateShare(pleasantries)).toBe(1);
    expect(boilerplateShare(content)).toBe(0);
    expect(boilerplateShare('')).toBe(0);
  });

  it('weights sentences by length, so a trailing sign-off is a small share', () => {
    const window = [
      'customer: What is your refund policy for chairs that do not match the table?',
      'agent: Chairs can be returned within 30 days with the receipt for a full refund.',
      'customer: Good to know, I may return two of the four chairs.',
      'agent: No problem. Have a great day!',
    ].join('\n');
    const share = boilerplateShare(window);
    expect(share).toBeGreaterThan(0);
    expect(share).toBeLessThan(0.2);
  });
});

describe('boilerplateShare cache', () => {
  it('is bounded in bytes, charging each text two bytes a character', () => {
    shareCache.clear();
    const text = 'thanks for calling. '.repeat(1_000); // 20,000 characters
    boilerplateShare(text);
    expect(shareCache.maxSize).toBeGreaterThan(0);
    expect(shareCache.maxSize).toBeLessThanOrEqual(64 * 1024 * 1024);
    expect(shareCache.calculatedSize).toBeGreaterThanOrEqual(2 * text.length);
    // Windows are keys: an erased contact's text must expire (old: kept until evicted).
    expect(shareCache.ttl).toBe(TEXT_CACHE_TTL_MS);
  });
});
