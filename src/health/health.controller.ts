import { EmbeddingService } from '@app/embedding';
import { VECTOR_STORE, type VectorStore } from '@app/vector';
import { Controller, Get, Inject } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';

import { StoreBootstrap } from '../retrieval/store-bootstrap.service';

/** Kubernetes probes: liveness says the process runs; readiness says it can serve. */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicator: HealthIndicatorService,
    private readonly embedding: EmbeddingService,
    private readonly bootstrap: StoreBootstrap,
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
  ) {}

  @Get('live')
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check([
      async () => {
        const session = this.indicator.check('database');
        if (!this.bootstrap.ready) {
          return session.down({ message: 'schema not migrated yet' });
        }
        return (await this.store.isHealthy()) ? session.up() : session.down();
      },
      () => {
        const session = this.indicator.check('embedder');
        return this.embedding.ready
          ? session.up({ model: this.embedding.info.model })
          : session.down();
      },
    ]);
  }
}
