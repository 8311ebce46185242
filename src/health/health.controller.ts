import { setTimeout as sleep } from 'node:timers/promises';

import { Database } from '@app/database';
import { EmbeddingService } from '@app/embedding';
import { PODIUM_CONTACTS, type PodiumContacts } from '@app/podium';
import { VECTOR_STORE, type VectorStore } from '@app/vector';
import { Controller, Get, Inject, Req } from '@nestjs/common';
import {
  HealthCheck,
  type HealthCheckResult,
  HealthCheckService,
  HealthIndicatorService,
} from '@nestjs/terminus';
import { type FastifyRequest } from 'fastify';

import { Public } from '../auth/public.decorator';
import { StoreBootstrap } from '../retrieval/store-bootstrap.service';
import { CachedCheck } from './cached-check';
import { ProbeBudget, ProbeRateLimitedError, REFUSAL_HOLD_MS } from './probe-budget';

/** Readiness answers are this fresh at worst: a probe every few seconds sees every change. */
const READY_CACHE_MS = 1000;

/**
 * Kubernetes probes: liveness says the process runs and can recover by itself (it is down
 * only when a restart may help: an embedded database that cannot be reopened or has stopped
 * answering); readiness says it can serve now.
 */
@Public({ rateLimit: false })
@Controller('health')
export class HealthController {
  /** The database and vector store round trips of readiness, shared for a second. */
  private readonly storage = new CachedCheck(() => this.checkStorage(), READY_CACHE_MS);
  /** Readiness checks per client address per second (past it, the last answer, slowly). */
  private readonly probes = new ProbeBudget();
  /** Replays the last readiness answer (its result, or its 503) to probes over the budget. */
  private lastReady?: () => HealthCheckResult;

  constructor(
    private readonly health: HealthCheckService,
    private readonly indicator: HealthIndicatorService,
    private readonly embedding: EmbeddingService,
    private readonly bootstrap: StoreBootstrap,
    private readonly database: Database,
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
    @Inject(PODIUM_CONTACTS) private readonly podium: PodiumContacts,
  ) {}

  @Get('live')
  @HealthCheck()
  live() {
    return this.health.check([
      () => {
        const session = this.indicator.check('database');
        const live = this.database.liveness();
        return live.up ? session.up() : session.down({ message: live.reason });
      },
    ]);
  }

  @Get('ready')
  @HealthCheck()
  async ready(@Req() request: FastifyRequest) {
    if (!this.probes.take(String(request.ip))) {
      // Over budget: held, then the last answer replayed, no check run. Not a 429: behind a
      // proxy without TRUST_PROXY every caller shares one address, and a flood must not turn
      // the load balancer's own checks into failures that take this replica out of rotation.
      await sleep(REFUSAL_HOLD_MS);
      if (!this.lastReady) {
        throw new ProbeRateLimitedError();
      }
      return this.lastReady();
    }
    try {
      const answer = await this.checkReady();
      this.lastReady = () => answer;
      return answer;
    } catch (error) {
      this.lastReady = () => {
        throw error;
      };
      throw error;
    }
  }

  private checkReady() {
    return this.health.check([
      async () => {
        const session = this.indicator.check('database');
        const storage = await this.storage.get();
        return storage.up ? session.up() : session.down({ message: storage.reason });
      },
      () => {
        const session = this.indicator.check('embedder');
        return this.embedding.ready
          ? session.up({ model: this.embedding.info.model })
          : session.down();
      },
      // Never down: without live fields the bridge still serves vector-only bundles, so a
      // degraded Podium is reported here but does not take the pod out of rotation.
      async () => {
        const session = this.indicator.check('podium');
        const podium = await this.podium.status(); // in memory: no round trip
        switch (podium.status) {
          case 'up':
            return session.up();
          case 'degraded':
            return session.up({ degraded: true, reason: podium.reason });
          case 'not_configured':
            return session.up({ configured: false });
        }
      },
    ]);
  }

  private async checkStorage(): Promise<{ up: true } | { up: false; reason?: string }> {
    if (!this.bootstrap.ready) {
      return { up: false, reason: this.bootstrap.notReadyReason };
    }
    // The relational tables (CRM, webhook inbox) live here whatever the vector store.
    const relational = await this.database.check();
    if (!relational.up) {
      return { up: false, reason: relational.reason };
    }
    return (await this.store.isHealthy())
      ? { up: true }
      : { up: false, reason: 'the vector store did not answer its health check' };
  }
}
