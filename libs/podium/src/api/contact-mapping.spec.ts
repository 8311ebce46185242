import { podiumContact } from '../../../../test/fakes/podium-server';
import { contactIdentifiers, toLiveContact } from './contact-mapping';
import { type PodiumContact } from './podium-wire';

describe('toLiveContact (Podium v4 contact → live fields)', () => {
  it('maps the PHONE and EMAIL channels, their opt-outs, the first location and all of them', () => {
    const sut = toLiveContact(
      'pat@example.com',
      podiumContact({
        uid: 'b1c2',
        phone: '+15550199',
        email: 'pat@example.com',
        emailOptedOutAt: '2026-02-01T10:00:00Z',
        locationUids: ['loc-1', 'loc-2'],
      }),
    );
    expect(sut).toEqual({
      contact_uid: 'pat@example.com',
      phone: '+15550199',
      email: 'pat@example.com',
      opt_out_sms: false,
      opt_out_email: true,
      location_uid: 'loc-1',
      last_seen_at: null,
      location_uids: ['loc-1', 'loc-2'],
    });
  });

  it('takes the first channel of a type in Podium order, and its own opt-out', () => {
    const contact: PodiumContact = {
      channels: [
        { type: 'EMAIL', identifier: 'a@example.com', transactionalOptedOutAt: null },
        { type: 'PHONE', identifier: '+15550001', transactionalOptedOutAt: '2026-01-01T00:00:00Z' },
        { type: 'PHONE', identifier: '+15550002', transactionalOptedOutAt: null },
        { type: 'FACEBOOK', identifier: 'fb-123', transactionalOptedOutAt: null },
      ],
    };
    expect(toLiveContact('x', contact)).toMatchObject({
      phone: '+15550001',
      opt_out_sms: true,
      email: 'a@example.com',
      opt_out_email: false,
    });
  });

  it('falls back to phoneNumbers/emails, without inventing a consent state', () => {
    const sut = toLiveContact('x', { phoneNumbers: ['+15550003'], emails: ['b@example.com'] });
    expect(sut).toMatchObject({
      phone: '+15550003',
      email: 'b@example.com',
      opt_out_sms: null,
      opt_out_email: null,
    });
  });

  it('reports an absent transactionalOptedOutAt as unknown, not as opted in', () => {
    const sut = toLiveContact('x', { channels: [{ type: 'PHONE', identifier: '+15550004' }] });
    expect(sut.opt_out_sms).toBeNull();
  });

  it('returns null for everything Podium does not say, and never a last_seen_at', () => {
    const sut = toLiveContact('x', {
      uid: 'u',
      name: 'Sam',
      updatedAt: '2026-11-30T10:00:00Z',
      channels: [{ type: 'PHONE', identifier: '' }],
      locations: [],
    });
    expect(sut).toEqual({
      contact_uid: 'x',
      phone: null,
      email: null,
      opt_out_sms: null,
      opt_out_email: null,
      location_uid: null,
      last_seen_at: null,
      location_uids: [],
    });
  });
});

describe('contactIdentifiers', () => {
  it('lists every identifier Podium knows the contact by, once', () => {
    const contact = podiumContact({
      uid: 'u-1',
      phone: '+15550199',
      email: 'pat@example.com',
      conversationUids: ['conv-1'],
    });
    expect(contactIdentifiers(contact).sort()).toEqual(
      ['+15550199', 'conv-1', 'pat@example.com', 'u-1'].sort(),
    );
  });
});
