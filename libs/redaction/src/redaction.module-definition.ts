import { ConfigurableModuleBuilder } from '@nestjs/common';

import type { RedactorOptions } from './redactor';

/** Options for `RedactionModule.forRoot` / `forRootAsync`: the {@link RedactorOptions}. */
export type RedactionModuleOptions = RedactorOptions;

export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: REDACTION_OPTIONS } =
  new ConfigurableModuleBuilder<RedactionModuleOptions>()
    .setClassMethodName('forRoot')
    .setExtras({ isGlobal: true }, (def, extras) => ({ ...def, global: extras.isGlobal }))
    .build();
