import { Controller, Get, Header } from '@nestjs/common';

import { MetricsAccess } from '../auth/public.decorator';
import { MetricsService } from './metrics.service';

/** Open to scrapers, or key-protected with METRICS_REQUIRE_KEY=true. */
@MetricsAccess()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
