import { configurableRootModule } from '@app/common';

import type { RedactorOptions } from './redactor';

/** Options for `RedactionModule.forRoot` / `forRootAsync`: the {@link RedactorOptions}. */
export type RedactionModuleOptions = RedactorOptions;

export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: REDACTION_OPTIONS } =
  configurableRootModule<RedactionModuleOptions>();
