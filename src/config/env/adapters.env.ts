import { Transform } from 'class-transformer';
import { IsOptional, IsString, MinLength } from 'class-validator';

import { emptyAsUndefined } from './decorators';

/** The platform adapters (`src/adapters/`): credentials that are not our own API keys. */
export class AdaptersEnv {
  /**
   * Legacy: one deployment-wide secret Vapi sends as `X-Vapi-Secret`, unbound (every
   * location); at least 16 characters. Refused when any API key or Vapi secret is bound to
   * locations: use VAPI_SECRETS, one secret per assistant.
   */
  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsString()
  @MinLength(16)
  VAPI_SECRET?: string;

  /**
   * Vapi server secrets, one per assistant, in API_KEYS' format: `name:sha256hex:locA|locB`
   * (the sha256 of the assistant's `server.secret`), separated by commas or newlines.
   */
  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsString()
  VAPI_SECRETS?: string;
}
