import { Module } from '@nestjs/common';

import { ConfigurableModuleClass } from './redaction.module-definition';
import { RedactionService } from './redaction.service';
import { RedactionOffloadService } from './redaction-offload.service';

/**
 * PII redaction for everything historical that leaves the service. Register once with
 * `RedactionModule.forRoot({ entities, phoneRegions })` (global by default) and inject
 * {@link RedactionService} (inline), or {@link RedactionOffloadService} for caller-supplied
 * texts that may be large.
 */
@Module({
  providers: [RedactionService, RedactionOffloadService],
  exports: [RedactionService, RedactionOffloadService],
})
export class RedactionModule extends ConfigurableModuleClass {}
