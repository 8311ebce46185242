import type { EntityType } from '../entity-types';
import { Redactor } from '../redactor';

type Finding = [EntityType, string];

describe('STREET_ADDRESS', () => {
  const sut = new Redactor();
  const findings = (text: string): Finding[] =>
    sut.redact(text).entities.map((e) => [e.type, text.slice(e.start, e.end)]);

  it.each<[string, string, string]>([
    ['number, name and suffix', 'I live at 123 Main Street now', '123 Main Street'],
    ['an abbreviated suffix keeps its dot', 'at 42 Elm St. today', '42 Elm St.'],
    ['a full suffix leaves the sentence dot', 'It is 1350 Grant Road.', '1350 Grant Road'],
    ['lower case', 'deliver to 131 mirada road please', '131 mirada road'],
    ['a pre-direction and an ordinal', 'at 358 west 44th street', '358 west 44th street'],
    ['a post-direction', 'at 5012 Petaluma Boulevard North.', '5012 Petaluma Boulevard North'],
    ['a unit', 'ship to 1030 Main Street #205 today', '1030 Main Street #205'],
    ['an apartment', '77 Oak Ave, Apt 4B, is mine', '77 Oak Ave, Apt 4B'],
    [
      'city, state and ZIP',
      'send it to 742 Evergreen Terrace, Springfield, IL 62704.',
      '742 Evergreen Terrace, Springfield, IL 62704',
    ],
    [
      'a full state name and country',
      'at 7277 Valjean Avenue, Van Nuys, California 91406, United States.',
      '7277 Valjean Avenue, Van Nuys, California 91406, United States',
    ],
    [
      'a ZIP+4',
      'to 1600 Pennsylvania Avenue NW, Washington, DC 20500-0003 now',
      '1600 Pennsylvania Avenue NW, Washington, DC 20500-0003',
    ],
    [
      'a hyphenated house number',
      'at 100-15 Ditmars Boulevard, East Elmhurst, NY 11369',
      '100-15 Ditmars Boulevard, East Elmhurst, NY 11369',
    ],
    ['Broadway without a suffix', 'meet at 1585 Broadway tonight', '1585 Broadway'],
    ['a two-suffix street', 'at 1771 Inner Circle Drive now', '1771 Inner Circle Drive'],
    ['an ambiguous suffix, capitalised', 'home is 8840 Lakewood Drive', '8840 Lakewood Drive'],
    [
      'an ambiguous suffix with a city',
      'home is 12 oak court, Dayton, OH 45402',
      '12 oak court, Dayton, OH 45402',
    ],
    ['a single-letter street name', 'at 1400 A Street today', '1400 A Street'],
    [
      'a lowercase direction before a capitalised name',
      'at 1639 north California boulevard',
      '1639 north California boulevard',
    ],
    [
      'an ambiguous suffix in lower case with a three-digit number',
      'at 400 east remington drive',
      '400 east remington drive',
    ],
    [
      'El Camino Real',
      'at 555 East El Camino Real, Palo Alto',
      '555 East El Camino Real, Palo Alto',
    ],
    ['a PO box', 'mail PO Box 1234 please', 'PO Box 1234'],
    [
      'a dotted P.O. box with locality',
      'P.O. Box 77, Austin, TX 78701.',
      'P.O. Box 77, Austin, TX 78701',
    ],
    [
      'but not a name that starts the next clause',
      'at 7 West 66th Street, Goldenson found it',
      '7 West 66th Street',
    ],
  ])('masks %s', (_name, text, expected) => {
    expect(findings(text)).toEqual([['STREET_ADDRESS', expected]]);
  });

  it.each<[string, string]>([
    ['a count followed by a place noun', 'I saw 3 dogs in the park'],
    ['a walk', 'it is a 5 minute walk'],
    ['a drive', 'about 20 minutes drive from here'],
    ['lower-case words before a capitalised suffix', 'there is 1 movie called Close'],
    ['a hotel description', 'a 3 star hotel called Abbey Court'],
    ['a sentence break before a suffix', 'We have 6 therapists. Dr. Smith is free'],
    ['a price before a street name', 'costs $25 Main Street prices'],
    ['a time', 'see you at 7 pm on Main Street'],
    ['a suffix glued to a longer word', 'read 3 Stanford papers'],
    ['a number without a street', 'table for 2 people please'],
    ['a year before an institution', 'the 1978 Supreme Court case'],
    ['a large count before a noun-like suffix', 'an army in 300 ships landing on the coast'],
  ])('leaves %s alone', (_name, text) => {
    expect(findings(text)).toEqual([]);
  });
});
