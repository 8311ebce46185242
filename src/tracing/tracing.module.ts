import {
  Inject,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { stopTracing } from './tracing';

/**
 * Says once at boot when contact-id hashes are keyed per process; flushes the spans still
 * batched when the app shuts down (a no-op with tracing off).
 */
@Module({})
export class TracingModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  onApplicationBootstrap(): void {
    if (!this.config.telemetry.hashKey) {
      new Logger('Telemetry').warn(
        'TELEMETRY_HASH_KEY is not set: contact ids in logs and traces are hashed under a random ' +
          'key of this process, so the same id hashes differently after a restart or on another ' +
          'replica. Set one (`openssl rand -hex 32`), the same on every replica.',
      );
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await stopTracing();
  }
}
