import { Module } from '@nestjs/common';

import { ConfigurableModuleClass } from './redaction.module-definition';
import { RedactionService } from './redaction.service';

/**
 * PII redaction for everything historical that leaves the service. Register once with
 * `RedactionModule.forRoot({ entities, phoneRegions })` (global by default) and inject
 * {@link RedactionService}.
 */
@Module({ providers: [RedactionService], exports: [RedactionService] })
export class RedactionModule extends ConfigurableModuleClass {}
