import { Module, type OnApplicationShutdown } from '@nestjs/common';

import { stopTracing } from './tracing';

/** Flushes the spans still batched when the app shuts down (a no-op with tracing off). */
@Module({})
export class TracingModule implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    await stopTracing();
  }
}
