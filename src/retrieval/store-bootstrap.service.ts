import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { EmbeddingService } from '@app/embedding';
import { VECTOR_STORE, type VectorStore } from '@app/vector';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';

import { DemoSeeder } from '../demo/demo-seeder.service';

/**
 * Brings the store up once the embedder is loaded: migrations plus the dimension check need
 * the embedder's dimension. On an empty store it seeds the demo data so the first request
 * already returns something real.
 */
@Injectable()
export class StoreBootstrap implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(StoreBootstrap.name);
  ready = false;

  constructor(
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly embedding: EmbeddingService,
    private readonly seeder: DemoSeeder,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { dimension } = await this.embedding.whenReady();
    await this.store.init(dimension);
    if (this.config.seedDemoData) {
      const seeded = await this.seeder.seedIfEmpty();
      if (seeded) {
        this.logger.log(`seeded demo data: ${JSON.stringify(seeded)}`);
      }
    }
    this.ready = true;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
