/**
 * Demo conversation history seeded into an empty embedded store, so the first request after
 * `npm start` returns something real. Synthetic: written by the team, no real customers.
 * Turn texts are [sender, text]; times are minutes after the conversation start.
 */
export interface DemoConversation {
  conversation_uid: string;
  contact_uid: string;
  location_uid: string;
  channel: 'sms' | 'call' | 'webchat';
  started_at: string;
  turns: Array<[sender: 'customer' | 'agent', text: string]>;
}

export const DEMO_CONVERSATIONS: DemoConversation[] = [
  {
    conversation_uid: 'conv_demo_001',
    contact_uid: 'ctc_demo_alice',
    location_uid: 'loc_demo_downtown',
    channel: 'sms',
    started_at: '2026-03-02T15:04:00Z',
    turns: [
      [
        'customer',
        'Hi, I ordered a walnut dining table last week and it still shows as processing.',
      ],
      ['agent', 'Thanks for reaching out! Can you share your order number?'],
      ['customer', 'Sure, my order number is ORD-48213.'],
      [
        'agent',
        'Found it. The table is back-ordered from the workshop; it should ship on March 20.',
      ],
      ['customer', 'OK. Can you text me at (555) 0100 when it ships?'],
      ['agent', 'Will do. Have a great day!'],
    ],
  },
  {
    conversation_uid: 'conv_demo_002',
    contact_uid: 'ctc_demo_alice',
    location_uid: 'loc_demo_downtown',
    channel: 'call',
    started_at: '2026-04-11T17:30:00Z',
    turns: [
      ['agent', 'Thank you for calling Oak and Iron Furniture, how can I help?'],
      ['customer', 'The dining table arrived but one leg is scratched along the bottom.'],
      ['agent', 'Sorry about that. We can send a touch-up kit or replace the leg under warranty.'],
      ['customer', 'Replace the leg please. I would rather not fix it myself.'],
      ['agent', 'Done: a replacement leg ships in five business days, no charge.'],
      ['customer', 'Great, thanks for the help.'],
    ],
  },
  {
    conversation_uid: 'conv_demo_003',
    contact_uid: 'ctc_demo_alice',
    location_uid: 'loc_demo_downtown',
    channel: 'webchat',
    started_at: '2026-06-01T09:12:00Z',
    turns: [
      ['customer', 'What is your refund policy for chairs that do not match the table?'],
      ['agent', 'Chairs can be returned within 30 days with the receipt for a full refund.'],
      ['customer', 'Good to know, I may return two of the four chairs.'],
      ['agent', 'No problem. Thanks for reaching out and have a great day!'],
    ],
  },
  {
    conversation_uid: 'conv_demo_004',
    contact_uid: 'ctc_demo_bob',
    location_uid: 'loc_demo_uptown',
    channel: 'call',
    started_at: '2026-05-14T13:00:00Z',
    turns: [
      ['agent', 'Oak and Iron Furniture uptown, this is Sam.'],
      ['customer', 'I want to book a delivery slot for the leather sofa I bought on Saturday.'],
      ['agent', 'We have Tuesday morning or Thursday afternoon.'],
      ['customer', 'Thursday afternoon works. The address is 742 Evergreen Terrace, Springfield.'],
      ['agent', 'Booked for Thursday between 1 and 5 pm.'],
      ['customer', 'Also, can I pay the balance with the card ending 4242?'],
      ['agent', 'Yes, we will charge the remaining balance on delivery.'],
    ],
  },
  {
    conversation_uid: 'conv_demo_005',
    contact_uid: 'ctc_demo_bob',
    location_uid: 'loc_demo_uptown',
    channel: 'sms',
    started_at: '2026-07-02T10:45:00Z',
    turns: [
      ['customer', 'The sofa cushion seams are coming apart after a month.'],
      ['agent', 'That is covered by the one-year fabric warranty. Can you send a photo?'],
      ['customer', 'Sent. Please email the claim to bob.builder@example.com.'],
      ['agent', 'Claim WR-7731 is open; a technician will visit within two weeks.'],
    ],
  },
  {
    conversation_uid: 'conv_demo_006',
    contact_uid: 'ctc_demo_carmen',
    location_uid: 'loc_demo_downtown',
    channel: 'webchat',
    started_at: '2026-08-19T19:20:00Z',
    turns: [
      ['customer', 'Do you do custom sizes for bookshelves? I need one 40 inches wide.'],
      [
        'agent',
        'Yes, custom widths from 24 to 60 inches, six weeks lead time, 15 percent surcharge.',
      ],
      ['customer', 'Perfect, please quote me a 40 inch oak bookshelf with five shelves.'],
      ['agent', 'Quote Q-2291: 1,240 dollars including the surcharge, valid for 30 days.'],
      ['customer', 'Thanks, I will think about it over the weekend.'],
      ['agent', 'Thanks for reaching out, have a great day!'],
    ],
  },
  {
    conversation_uid: 'conv_demo_007',
    contact_uid: 'ctc_demo_carmen',
    location_uid: 'loc_demo_downtown',
    channel: 'sms',
    started_at: '2026-09-03T08:05:00Z',
    turns: [
      ['customer', 'I would like to go ahead with quote Q-2291 for the bookshelf.'],
      ['agent', 'Great! A 50 percent deposit starts production. Pay online or in store?'],
      ['customer', 'In store on Saturday.'],
      ['agent', 'See you Saturday. Our downtown store opens at 10 am.'],
    ],
  },
];
