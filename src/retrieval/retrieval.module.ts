import { Module } from '@nestjs/common';

import { HybridSearchService } from './hybrid-search.service';
import { SearchController } from './search.controller';
import { SearchService } from './search.service';
import { StoreBootstrap } from './store-bootstrap.service';

/** The shared retrieval core's app side: store bring-up and raw search. */
@Module({
  controllers: [SearchController],
  providers: [StoreBootstrap, SearchService, HybridSearchService],
  exports: [StoreBootstrap, SearchService, HybridSearchService],
})
export class RetrievalModule {}
