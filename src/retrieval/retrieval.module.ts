import { Module } from '@nestjs/common';

import { HybridSearchService } from './hybrid-search.service';
import { SearchController } from './search.controller';
import { SearchService } from './search.service';
import { StoreBootstrap } from './store-bootstrap.service';
import { StoreMaintenance } from './store-maintenance.service';

/** The shared retrieval core's app side: store bring-up and raw search. */
@Module({
  controllers: [SearchController],
  providers: [StoreBootstrap, StoreMaintenance, SearchService, HybridSearchService],
  exports: [StoreBootstrap, StoreMaintenance, SearchService, HybridSearchService],
})
export class RetrievalModule {}
