import { configurableRootModule } from '@app/common';

import { type CurriculumData } from './local/local-curriculum.source';

/** The provider names `CURRICULUM_PROVIDER` accepts; `none` answers without a theme boost. */
export const CURRICULUM_PROVIDERS = ['local', 'pocketbase', 'none'] as const;
export type CurriculumProviderName = (typeof CURRICULUM_PROVIDERS)[number];

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
  configurableRootModule<CurriculumModuleOptions>();
