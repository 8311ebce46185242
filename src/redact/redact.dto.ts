import type { RedactedEntity } from '@app/redaction';
import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';

import { WellFormed } from '../common/validators';

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
  @ApiProperty({ description: 'The text to redact (at most 65,536 characters).' })
  @IsString()
  @WellFormed()
  text!: string;
}

class RedactedEntityDto {
  @ApiProperty({ example: 'PHONE' })
  type!: string;

  @ApiProperty({ description: 'Offset of the entity in the submitted text.' })
  start!: number;

  @ApiProperty({ description: 'End offset (exclusive).' })
  end!: number;
}

/** Response of POST /redact: the masked text and each entity's span in the submitted text. */
export class RedactResponse {
  @ApiProperty({ description: 'With each entity replaced by `[REDACTED:TYPE]`.' })
  text!: string;

  @ApiProperty({ type: [RedactedEntityDto] })
  entities!: RedactedEntity[];
}
