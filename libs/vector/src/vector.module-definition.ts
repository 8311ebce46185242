import { ConfigurableModuleBuilder } from '@nestjs/common';

export interface VectorModuleOptions {
  provider: 'pgvector' | 'qdrant';
  qdrantUrl?: string;
  qdrantApiKey?: string;
}

export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: VECTOR_OPTIONS } =
  new ConfigurableModuleBuilder<VectorModuleOptions>()
    .setClassMethodName('forRoot')
    .setExtras({ isGlobal: true }, (def, extras) => ({ ...def, global: extras.isGlobal }))
    .build();
