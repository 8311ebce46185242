import { Module } from '@nestjs/common';

import { ContextModule } from '../../context/context.module';
import { VectorStoresController } from './vector-stores.controller';

/** `POST /v1/vector_stores/{contact_uid}/search`: OpenAI's vector-store search shape. */
@Module({
  imports: [ContextModule],
  controllers: [VectorStoresController],
})
export class OpenAiAdapterModule {}
