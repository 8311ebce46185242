import { Global, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { type FastifyInstance } from 'fastify';

import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

/** Prometheus metrics: the registry every module records into, `GET /metrics`, HTTP latency. */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [MetricsService],
  exports: [MetricsService],
})
export class MetricsModule implements OnModuleInit {
  constructor(
    private readonly http: HttpAdapterHost,
    private readonly metrics: MetricsService,
  ) {}

  /** Every response's latency; Fastify applies the hook to all routes when it gets ready. */
  onModuleInit(): void {
    // The CLI boots the modules as an application context, without any HTTP server.
    const adapter = this.http.httpAdapter as HttpAdapterHost['httpAdapter'] | undefined;
    if (!adapter) {
      return;
    }
    adapter.getInstance<FastifyInstance>().addHook('onResponse', (request, reply, done) => {
      // The route pattern, not the URL: unmatched paths all count as one label value.
      const route = request.routeOptions.url ?? 'unmatched';
      this.metrics.httpDuration.observe(
        { route, method: request.method, status: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
      done();
    });
  }
}
