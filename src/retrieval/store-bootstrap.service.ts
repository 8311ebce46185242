import { StartupRetry } from '@app/common';
import { EmbeddingService } from '@app/embedding';
import { VECTOR_STORE, type VectorStore } from '@app/vector';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';

/** Work that must be done before the store reports ready, e.g. seeding an empty store. */
export type ReadyTask = () => Promise<void>;

/**
 * Brings the vector store up once the embedder is loaded (collections and the dimension
 * check need its dimension), then runs the tasks other modules registered with
 * {@link beforeReady} (the demo seed), so the first request already finds what they wrote.
 *
 * A store that cannot be reached (a DependencyError, e.g. Qdrant down; its `init` bounds the
 * wait) does not fail the boot: readiness reports why, and start-up is retried in the
 * background. Anything else, such as a dimension mismatch, still fails the boot.
 */
@Injectable()
export class StoreBootstrap implements OnApplicationBootstrap, OnApplicationShutdown {
  ready = false;
  /** Why readiness is down while `ready` is false. */
  notReadyReason = 'schema not migrated yet';
  private readonly tasks: ReadyTask[] = [];
  private readonly lastTasks: ReadyTask[] = [];
  private readonly retry = new StartupRetry(
    new Logger(StoreBootstrap.name),
    { down: 'vector store not ready', failed: 'vector store start-up failed' },
    (error) => (this.notReadyReason = error.message),
  );

  constructor(
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
    private readonly embedding: EmbeddingService,
  ) {}

  /**
   * Runs `task` once the store is up, before it reports ready: at boot, before the server
   * listens; after an outage at boot, before readiness goes up. Register at module init.
   */
  beforeReady(task: ReadyTask, when: 'first' | 'last' = 'first'): void {
    // `last`: after every other task (a warm-up that should see what a seed wrote).
    if (when === 'last') {
      this.lastTasks.push(task);
    } else {
      this.tasks.push(task);
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    const { dimension } = await this.embedding.whenReady();
    await this.retry.run(
      () => this.store.init(dimension),
      async () => {
        for (const task of [...this.tasks, ...this.lastTasks]) {
          await task();
        }
        this.ready = true;
      },
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.retry.stop();
    await this.store.close();
  }
}
