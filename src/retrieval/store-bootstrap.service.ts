import { DependencyError } from '@app/common';
import { EmbeddingService } from '@app/embedding';
import { VECTOR_STORE, type VectorStore } from '@app/vector';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { DemoSeeder } from '../demo/demo-seeder.service';

/** Pause between start-up attempts while the store is unreachable. */
const RETRY_MS = 5000;

/**
 * Brings the store up once the embedder is loaded: migrations plus the dimension check need
 * the embedder's dimension. On an empty store it seeds the demo data so the first request
 * already returns something real.
 *
 * A store that cannot be reached (a DependencyError, e.g. Qdrant down; its `init` bounds the
 * wait) does not fail the boot: readiness reports why, and start-up is retried in the
 * background. Anything else, such as a dimension mismatch, still fails the boot.
 */
@Injectable()
export class StoreBootstrap implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(StoreBootstrap.name);
  ready = false;
  /** Why readiness is down while `ready` is false. */
  notReadyReason = 'schema not migrated yet';
  private retry?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly embedding: EmbeddingService,
    private readonly seeder: DemoSeeder,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { dimension } = await this.embedding.whenReady();
    await this.bringUp(dimension);
  }

  private async bringUp(dimension: number): Promise<void> {
    try {
      await this.store.init(dimension);
    } catch (error) {
      if (!(error instanceof DependencyError) || this.stopped) {
        throw error;
      }
      this.notReadyReason = error.message;
      this.logger.error(`vector store not ready: ${error.message}; retrying in ${RETRY_MS} ms`);
      this.retry = setTimeout(() => {
        this.bringUp(dimension).catch((e: unknown) => {
          this.notReadyReason = (e as Error).message;
          this.logger.error(`vector store start-up failed: ${(e as Error).message}`);
        });
      }, RETRY_MS);
      return;
    }
    if (this.config.seedDemoData) {
      const seeded = await this.seeder.seedIfEmpty();
      if (seeded) {
        this.logger.log(`seeded demo data: ${JSON.stringify(seeded)}`);
      }
    }
    this.ready = true;
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.store.close();
  }
}
