import { type LocalContact } from '@app/podium';

/**
 * Live CRM state of the demo contacts. Alice changed her phone after the March SMS thread
 * (history says (555) 0100, live says (555) 0199): the bridge must ship the live one.
 */
export const DEMO_CONTACTS: LocalContact[] = [
  {
    contact_uid: 'ctc_demo_alice',
    name: 'Alice Demo',
    phone: '+1 555 0199',
    email: 'alice.demo@example.com',
    opt_out_sms: false,
    opt_out_email: true,
    location_uid: 'loc_demo_downtown',
    last_seen_at: '2026-11-30T16:20:00.000Z',
  },
  {
    contact_uid: 'ctc_demo_bob',
    name: 'Bob Demo',
    phone: '+1 555 0142',
    email: 'bob.builder@example.com',
    opt_out_sms: true,
    opt_out_email: false,
    location_uid: 'loc_demo_uptown',
    last_seen_at: '2026-10-02T09:00:00.000Z',
  },
  {
    contact_uid: 'ctc_demo_carmen',
    name: 'Carmen Demo',
    phone: '+1 555 0177',
    email: null,
    opt_out_sms: false,
    opt_out_email: false,
    location_uid: 'loc_demo_downtown',
    last_seen_at: '2026-09-03T08:30:00.000Z',
  },
];
