import { Transform } from 'class-transformer';
import { IsOptional, IsString, MinLength } from 'class-validator';

import { emptyAsUndefined } from './decorators';

/** The platform adapters (`src/adapters/`): credentials that are not our own API keys. */
export class AdaptersEnv {
  /**
   * The secret Vapi sends as `X-Vapi-Secret` (the assistant's `server.secret`); at least 16
   * characters, since it stands in for an unbound API key. Unset: Vapi must use a Bearer key.
   */
  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsString()
  @MinLength(16)
  VAPI_SECRET?: string;
}
