import { ConfigurableModuleBuilder } from '@nestjs/common';

export interface VectorModuleOptions {
  provider: 'pgvector' | 'qdrant';
  /** Embedded PGlite data dir (`memory://` for RAM); used when no databaseUrl is set. */
  dataDir: string;
  databaseUrl?: string;
  qdrantUrl?: string;
  qdrantApiKey?: string;
}

export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: VECTOR_OPTIONS } =
  new ConfigurableModuleBuilder<VectorModuleOptions>()
    .setClassMethodName('forRoot')
    .setExtras({ isGlobal: true }, (def, extras) => ({ ...def, global: extras.isGlobal }))
    .build();
