import type { RedactedEntity } from '@app/redaction';
import { IsString } from 'class-validator';

/**
 * Largest `text` POST /redact accepts, in UTF-16 code units (what `@MaxLength` would
 * count): 64 Ki characters.
 */
export const MAX_REDACT_TEXT_LENGTH = 65_536;

/** Body of POST /redact. */
export class RedactRequestDto {
  /**
   * The text to redact. Its length is checked by the controller rather than with
   * `@MaxLength`, so an oversized text gets its own stable code (`text_too_large`) instead
   * of the generic `validation_failed`.
   */
  @IsString()
  text!: string;
}

/** Response of POST /redact: the masked text and each entity's span in the submitted text. */
export interface RedactResponse {
  text: string;
  entities: RedactedEntity[];
}
