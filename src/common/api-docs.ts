import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, type SchemaObject } from '@nestjs/swagger';

/** The alphabet `@IsUid()` accepts, for the docs. */
export const UID_PATTERN = '^[A-Za-z0-9._:@+-]+$';

/** OpenAPI property options of an external identifier (`@IsUid()`). */
export const uidProperty = (description: string) => ({
  type: String,
  description,
  maxLength: 128,
  pattern: UID_PATTERN,
});

/**
 * Documents a server-sent-events answer (`POST /chat`): `text/event-stream`, one `data:`
 * frame per event, each event one of `events` (a discriminated union on `type`).
 */
export function ApiSseResponse(description: string, events: SchemaObject[]) {
  return applyDecorators(
    ApiProduces('text/event-stream'),
    ApiOkResponse({
      description,
      content: {
        // No `discriminator`: OpenAPI 3.0 maps it through named schemas, and these are inline.
        'text/event-stream': { schema: { oneOf: events } },
      },
    }),
  );
}
