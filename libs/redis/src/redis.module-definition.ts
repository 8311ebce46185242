import { ConfigurableModuleBuilder } from '@nestjs/common';

import { type RedisModuleOptions } from './redis-connection';

export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: REDIS_OPTIONS } =
  new ConfigurableModuleBuilder<RedisModuleOptions>()
    .setClassMethodName('forRoot')
    .setExtras({ isGlobal: true }, (def, extras) => ({ ...def, global: extras.isGlobal }))
    .build();
