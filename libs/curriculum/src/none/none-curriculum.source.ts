import { DependencyError } from '@app/common';

import { type CurrentWeek, type CurriculumSource } from '../interfaces/curriculum-source.interface';

/**
 * No curriculum (`CURRICULUM_PROVIDER=none`): every employee is between programmes, so chat
 * answers without the current-week boost. Never `user_not_found`: with no roster to check
 * against, refusing every user would stop chat rather than just the boost.
 */
export class NoneCurriculumSource implements CurriculumSource {
  currentWeek(_userId: string, signal?: AbortSignal): Promise<CurrentWeek> {
    // Same contract as the other providers: a caller that already gave up gets a rejection.
    if (signal?.aborted) {
      return Promise.reject(
        new DependencyError('curriculum_failed', 'Curriculum lookup aborted by the caller.'),
      );
    }
    return Promise.resolve({ status: 'found', themeId: null, themeName: null });
  }

  isHealthy(): Promise<boolean> {
    return Promise.resolve(true);
  }
}
