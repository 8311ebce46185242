import { Module } from '@nestjs/common';

import { ConfigurableModuleClass } from './embedding.module-definition';
import { embeddingProvider } from './embedding.providers';
import { EmbeddingService } from './embedding.service';

/** Text → vector, with the provider chosen by config (`local`, `openai`, `tei`). */
@Module({ providers: [embeddingProvider, EmbeddingService], exports: [EmbeddingService] })
export class EmbeddingModule extends ConfigurableModuleClass {}
