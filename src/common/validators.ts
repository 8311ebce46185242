import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';

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

/**
 * Free text: not blank, at most `max` characters, and no NUL, which Postgres text rejects
 * (one such record would otherwise fail a whole insert batch).
 */
export const IsText = (max: number) =>
  applyDecorators(
    IsString(),
    Matches(/\S/, { message: '$property must not be blank' }),
    // eslint-disable-next-line no-control-regex -- matching NUL is the point
    Matches(/^[^\u0000]*$/, { message: '$property must not contain NUL characters' }),
    MaxLength(max),
  );

/**
 * An explicit `null` is the field left out, as `@IsOptional()` already validates it: the
 * services then see one value (`undefined`) for both, so `"location_uid": null` means the
 * key's own locations exactly as omitting it does (it once answered 403).
 */
export const NullAsOmitted = () =>
  Transform(({ value }: { value: unknown }) => (value === null ? undefined : value));
