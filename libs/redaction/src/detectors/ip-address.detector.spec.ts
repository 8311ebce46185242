import type { EntityType } from '../entity-types';
import { Redactor } from '../redactor';

type Finding = [EntityType, string];

describe('IP_ADDRESS', () => {
  const sut = new Redactor();
  const findings = (text: string): Finding[] =>
    sut.redact(text).entities.map((e) => [e.type, text.slice(e.start, e.end)]);

  it.each<[string, string, string]>([
    ['a private IPv4', 'from 192.168.1.10 at noon', '192.168.1.10'],
    ['an IPv4 with a port', 'host 10.0.0.1:8080 down', '10.0.0.1'],
    ['an IPv4 at the end of a sentence', 'It was 203.0.113.7.', '203.0.113.7'],
    ['a compressed IPv6', 'via 2001:db8::1 today', '2001:db8::1'],
    [
      'a full IPv6',
      'addr 2001:0db8:85a3:0000:0000:8a2e:0370:7334 ok',
      '2001:0db8:85a3:0000:0000:8a2e:0370:7334',
    ],
    ['an IPv4-mapped IPv6', 'peer ::ffff:192.0.2.1 seen', '::ffff:192.0.2.1'],
    ['a link-local IPv6', 'iface fe80::1ff:fe23:4567:890a up', 'fe80::1ff:fe23:4567:890a'],
    ['an IPv4 CIDR', 'the range is 10.0.0.0/8 here', '10.0.0.0/8'],
    ['an IPv4 CIDR before a full stop', 'the range is 10.0.0.0/8.', '10.0.0.0/8'],
    ['an IPv6 CIDR before a full stop', 'route 2001:db8::/32.', '2001:db8::/32'],
  ])('masks %s', (_name, text, expected) => {
    expect(findings(text)).toEqual([['IP_ADDRESS', expected]]);
  });

  it.each<[string, string]>([
    ['an out-of-range octet', 'value 256.1.1.1'],
    ['leading zeros', 'value 01.02.03.04'],
    ['a three-part version', 'upgrade to 1.2.3'],
    ['a four-part version after "version"', 'version 1.2.3.4 released'],
    ['a four-part build number', 'build 10.0.0.1 passed'],
    ['a five-part dotted number', 'oid 1.3.6.1.4'],
    ['a clock time', 'at 10:22:33'],
    ['a MAC address', 'mac 00:1A:2B:3C:4D:5E'],
    ['digit-free hex words', 'dad::bad and ::'],
  ])('leaves %s alone', (_name, text) => {
    expect(findings(text)).toEqual([]);
  });
});
