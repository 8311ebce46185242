import { Module } from '@nestjs/common';

import { ConfigurableModuleClass } from './coalescer.module-definition';
import { coalescerProviders } from './coalescer.providers';
import { TranscriptCoalescer } from './transcript-coalescer';

/**
 * Per-call transcript coalescing, with state in memory or (given `redisUrl`) in Redis.
 * The Redis connection is closed on application shutdown by {@link TranscriptCoalescer}.
 */
@Module({ providers: [...coalescerProviders, TranscriptCoalescer], exports: [TranscriptCoalescer] })
export class CoalescerModule extends ConfigurableModuleClass {}
