import type { EntityType } from '../entity-types';
import { Redactor } from '../redactor';

type Finding = [EntityType, string];

describe('EMAIL', () => {
  const sut = new Redactor();
  const findings = (text: string): Finding[] =>
    sut.redact(text).entities.map((e) => [e.type, text.slice(e.start, e.end)]);

  it.each<[string, string, string]>([
    ['a plain address', 'mail jane@example.com today', 'jane@example.com'],
    [
      'dots and plus tags',
      'mail john.doe+billing@mail.example.co.uk.',
      'john.doe+billing@mail.example.co.uk',
    ],
    ['an address in angle brackets', 'From: Jane <jane_d@corp-mail.io>', 'jane_d@corp-mail.io'],
    ['an address after mailto:', 'mailto:ops@example.org', 'ops@example.org'],
    ['an address with digits', 'user 42 is j42@ex4mple.net', 'j42@ex4mple.net'],
    ['an upper-case address', 'JANE.DOE@EXAMPLE.COM', 'JANE.DOE@EXAMPLE.COM'],
    [
      'a dictated address',
      'it is john dot smith at gmail dot com okay',
      'john dot smith at gmail dot com',
    ],
    [
      'a dictated address with a plain local part',
      'email jsmith at example dot org',
      'jsmith at example dot org',
    ],
    [
      'a dictated address with a written dotted local part',
      'it is jane.smith at gmail dot com',
      'jane.smith at gmail dot com',
    ],
    ['a bracketed address', 'write to jane [at] example [dot] org', 'jane [at] example [dot] org'],
    [
      'a spoken at with a written domain',
      'it is alice.jones at example.com',
      'alice.jones at example.com',
    ],
    [
      'a spoken at after a digit local part',
      'send to jdoe42 at corp.io thanks',
      'jdoe42 at corp.io',
    ],
    ['a plain name at a mailbox provider', 'it is alice at gmail.com', 'alice at gmail.com'],
    [
      'a plain name after an e-mail word',
      'my email is alice at example.com',
      'alice at example.com',
    ],
    [
      'spoken dots before a written domain',
      'alice dot jones at example.co.uk',
      'alice dot jones at example.co.uk',
    ],
    ['a bracketed at with a written domain', 'jane [at] example.com', 'jane [at] example.com'],
    ['an upper-case AT', 'ALICE.JONES AT EXAMPLE.COM', 'ALICE.JONES AT EXAMPLE.COM'],
    // Ways to hide an address from scrapers that leave it readable to anyone.
    ['a defanged dot', 'mail alice[at]example[.]com', 'alice[at]example[.]com'],
    ['curly brackets', 'mail alice{at}example{dot}com', 'alice{at}example{dot}com'],
    ['a bracketed @', 'alice [@] example [.] com', 'alice [@] example [.] com'],
    ['a spaced @', 'reply to alice @ example.com', 'alice @ example.com'],
    ['an @ with a space after it', 'reply to alice@ example.com', 'alice@ example.com'],
    ['an @ before a spoken dot', 'reply to alice@example dot com', 'alice@example dot com'],
    ['an HTML entity @', 'alice&#64;example.com', 'alice&#64;example.com'],
    ['a hex HTML entity @', 'alice&#x40;example.com', 'alice&#x40;example.com'],
    ['named HTML entities', 'alice&commat;example&period;com', 'alice&commat;example&period;com'],
    ['a URL-encoded @', 'mail alice%40example.com', 'alice%40example.com'],
    // Decoded, "to=alice@example.com" is one address ("=" is atext): the mask takes it whole.
    ['a URL-encoded @ in a query', 'to=alice%40example.com', 'to=alice%40example.com'],
  ])('masks %s', (_name, text, expected) => {
    expect(findings(text)).toEqual([['EMAIL', expected]]);
  });

  it.each<[string, string]>([
    ['a handle', 'follow @janedoe on social'],
    ['an address without a TLD', 'user@localhost is the default'],
    ['an at-sign in prose', 'meet @ 5 pm'],
    ['a domain on its own', 'see example.com for details'],
    ['"at" and "dot" without a TLD', 'look at the dot over the i'],
    ['a dictated domain with an unknown TLD', 'jsmith at example dot banana'],
    // "at" before a website is ordinary English: a pronoun or a plain word is no mailbox.
    ['a pronoun at a website', 'meet me at home.com'],
    ['a place at a website', 'find us at shop.example.com'],
    ['a plain word at a website', 'it is sold at amazon.com'],
    ['a plain name at a website, no e-mail word', 'ask alice at example.com tomorrow'],
    ['a written domain with an unknown TLD', 'alice.jones at example.banana'],
    ['a pronoun at a spaced @', 'meet me @ home.com'],
  ])('leaves %s alone', (_name, text) => {
    expect(findings(text)).toEqual([]);
  });
});
