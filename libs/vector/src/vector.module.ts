import { Module } from '@nestjs/common';

import { ConfigurableModuleClass } from './vector.module-definition';
import { vectorStoreProvider } from './vector.providers';

/**
 * The vector store port bound to the configured backend. The store is initialised by its
 * consumer (the app's StoreBootstrap) once the embedder's dimension is known.
 */
@Module({ providers: [vectorStoreProvider], exports: [vectorStoreProvider] })
export class VectorModule extends ConfigurableModuleClass {}
