import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, Matches, MaxLength, ValidateBy } from 'class-validator';

import { UID_PATTERN } from './api-docs';

const UID_REGEX = new RegExp(UID_PATTERN);

/**
 * An external identifier (contact, call, location, conversation): short, printable ASCII.
 * `+` is allowed because Podium identifies contacts by E.164 phone numbers and emails too.
 */
export const IsUid = () =>
  applyDecorators(
    IsString(),
    IsNotEmpty(),
    MaxLength(128),
    Matches(UID_REGEX, { message: '$property has invalid characters' }),
  );

/** Postgres text refuses NUL. */
const NoNul = () =>
  // eslint-disable-next-line no-control-regex -- matching NUL is the point
  Matches(/^[^\u0000]*$/, { message: '$property must not contain NUL characters' });

/** A UTF-16 surrogate without its pair: JSON's `"\ud800"` escape, which is no character. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Well-formed Unicode. A lone surrogate is stored as U+FFFD, so the text kept is not the one
 * sent, and between digit groups it hid a card or a phone number from redaction.
 */
export const WellFormed = () =>
  ValidateBy({
    name: 'wellFormed',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || !LONE_SURROGATE.test(value),
      defaultMessage: () => '$property must be well-formed Unicode (no lone surrogates)',
    },
  });

/**
 * Free text: not blank, at most `max` characters, no NUL, which Postgres text rejects
 * (one such record would otherwise fail a whole insert batch), and no lone surrogate.
 */
export const IsText = (max: number) =>
  applyDecorators(
    IsString(),
    Matches(/\S/, { message: '$property must not be blank' }),
    NoNul(),
    WellFormed(),
    MaxLength(max),
  );

/**
 * A short stored label (a sender, a title, a theme): not empty, at most `max` characters, and
 * no NUL (Postgres text refuses it: one such record failed its whole batch with a 500).
 */
export const IsLabel = (max: number) =>
  applyDecorators(IsString(), IsNotEmpty(), MaxLength(max), NoNul(), WellFormed());

/**
 * A timestamp JavaScript can read: ISO 8601 also has week (`2026-W18-5`) and ordinal
 * (`2026-121`) dates and bare hours, which pass `IsISO8601` but are an Invalid Date to the
 * store (a RangeError: its whole batch failed with a 500).
 */
export const IsReadableDate = () =>
  ValidateBy({
    name: 'isReadableDate',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && Number.isFinite(Date.parse(value)),
      defaultMessage: () => '$property must be a date-time such as 2026-01-05T10:00:00Z',
    },
  });

/**
 * An explicit `null` is the field left out, as `@IsOptional()` already validates it: the
 * services then see one value (`undefined`) for both, so `"location_uid": null` means the
 * key's own locations exactly as omitting it does (it once answered 403).
 */
export const NullAsOmitted = () =>
  Transform(({ value }: { value: unknown }) => (value === null ? undefined : value));
