import { ConfigurableModuleBuilder } from '@nestjs/common';

import { type CurriculumData } from './local/local-curriculum.source';

/** The provider names `CURRICULUM_PROVIDER` accepts. */
export type CurriculumProviderName = 'local' | 'pocketbase';

export interface CurriculumModuleOptions {
  provider: CurriculumProviderName;
  /** Required for `local`: the embedded curriculum (the app passes the demo set). */
  localData?: CurriculumData;
  /** Required for `pocketbase`, with the superuser credentials below. */
  pocketbaseUrl?: string;
  pocketbaseAdminEmail?: string;
  pocketbaseAdminPassword?: string;
  /** Per-lookup ceiling for `pocketbase` when the caller passes no earlier signal (ms). */
  timeoutMs?: number;
}

export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: CURRICULUM_OPTIONS } =
  new ConfigurableModuleBuilder<CurriculumModuleOptions>()
    .setClassMethodName('forRoot')
    .setExtras({ isGlobal: true }, (def, extras) => ({ ...def, global: extras.isGlobal }))
    .build();
