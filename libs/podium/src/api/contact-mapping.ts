import { type LiveContact } from '../interfaces/podium-contacts.interface';
import { type PodiumChannel, type PodiumContact } from './podium-wire';

/**
 * Maps a Podium v4 contact (`GET /v4/contacts/{identifier}` → `data`) to the spec's live
 * fields. Podium has no field for some of them; those are `null`, never guessed.
 *
 * | live field      | from Podium                                                                 |
 * |-----------------|-----------------------------------------------------------------------------|
 * | `contact_uid`   | the identifier the bridge looked up (its own key), not Podium's `uid`        |
 * | `phone`         | `identifier` of the first `channels[]` entry with `type: "PHONE"`, in       |
 * |                 | Podium's order; else `phoneNumbers[0]`; else `null`                          |
 * | `email`         | `identifier` of the first `channels[]` entry with `type: "EMAIL"`; else      |
 * |                 | `emails[0]`; else `null`                                                     |
 * | `opt_out_sms`   | that PHONE channel's `transactionalOptedOutAt`: a timestamp → `true`, `null` |
 * |                 | → `false`; `null` when the field is absent or the phone came from           |
 * |                 | `phoneNumbers` (no channel, so no consent state) or there is no phone        |
 * | `opt_out_email` | the same, from the chosen EMAIL channel                                      |
 * | `location_uid`  | `locations[0].uid` (a contact can belong to several locations; the first in |
 * |                 | Podium's order is used); `null` when there is none. All of them are kept in |
 * |                 | `location_uids` for tenant checks                                           |
 * | `last_seen_at`  | always `null`: a Podium contact has no last-seen field. `updatedAt` is when |
 * |                 | the record changed, not when the customer was last active                   |
 *
 * The opt-outs are the transactional ones (a STOP reply), the state that decides whether the
 * business may text or email the customer at all. Campaign consent
 * (`marketingOptedInLocationUids`) is a separate, per-location opt-in and is not mapped.
 */
export function toLiveContact(contactUid: string, contact: PodiumContact): LiveContact {
  const phone = pickChannel(contact.channels, 'PHONE', contact.phoneNumbers);
  const email = pickChannel(contact.channels, 'EMAIL', contact.emails);
  const locations = [
    ...new Set((contact.locations ?? []).map((l) => l?.uid).filter(isNonEmptyString)),
  ];
  return {
    contact_uid: contactUid,
    phone: phone.identifier,
    email: email.identifier,
    opt_out_sms: phone.optedOut,
    opt_out_email: email.optedOut,
    location_uid: locations[0] ?? null,
    last_seen_at: null,
    location_uids: locations,
  };
}

/**
 * Every identifier Podium knows the contact by: its `uid`, channel identifiers, phone numbers,
 * emails and conversation uids. A cached lookup is indexed under all of them, so an
 * invalidation by any one (a webhook carries Podium's `uid`) drops it.
 */
export function contactIdentifiers(contact: PodiumContact): string[] {
  const all = [
    contact.uid,
    ...(contact.channels ?? []).map((c) => c?.identifier),
    ...(contact.phoneNumbers ?? []),
    ...(contact.emails ?? []),
    ...(contact.conversations ?? []).map((c) => c?.uid),
  ];
  return [...new Set(all.filter(isNonEmptyString))];
}

function pickChannel(
  channels: PodiumChannel[] | null | undefined,
  type: 'PHONE' | 'EMAIL',
  listed: string[] | null | undefined,
): { identifier: string | null; optedOut: boolean | null } {
  const channel = (channels ?? []).find(
    (c) =>
      typeof c?.type === 'string' &&
      c.type.toUpperCase() === type &&
      isNonEmptyString(c.identifier),
  );
  if (channel) {
    return { identifier: channel.identifier as string, optedOut: optedOut(channel) };
  }
  return { identifier: firstString(listed ?? []), optedOut: null };
}

/** A timestamp means opted out, an explicit `null` means not; an absent field is unknown. */
function optedOut(channel: PodiumChannel): boolean | null {
  const at = channel.transactionalOptedOutAt;
  if (at === undefined) {
    return null;
  }
  return isNonEmptyString(at);
}

function firstString(values: ReadonlyArray<unknown>): string | null {
  const found = values.find(isNonEmptyString);
  return found ?? null;
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}
