import { Module } from '@nestjs/common';

import { ConfigurableModuleClass } from './coalescer.module-definition';
import { coalescerProviders } from './coalescer.providers';
import { TranscriptCoalescer } from './transcript-coalescer';

/**
 * Per-call transcript coalescing, with state in memory or, when the process has a Redis
 * (`RedisModule`), in Redis; the connection is `RedisConnection`'s to close.
 */
@Module({ providers: [...coalescerProviders, TranscriptCoalescer], exports: [TranscriptCoalescer] })
export class CoalescerModule extends ConfigurableModuleClass {}
