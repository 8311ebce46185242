import { Module } from '@nestjs/common';

import { RedactController } from './redact.controller';

/**
 * POST /redact. It injects `RedactionService`, which the global
 * `RedactionModule.forRoot(...)` registered by the app module provides.
 */
@Module({ controllers: [RedactController] })
export class RedactModule {}
