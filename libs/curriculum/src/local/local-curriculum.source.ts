import { ConfigurationError, DependencyError } from '@app/common';

import { type CurrentWeek, type CurriculumSource } from '../interfaces/curriculum-source.interface';

/**
 * An embedded curriculum in the same shape as the PocketBase one: employee state → week →
 * theme. `weekId`/`themeId` references are checked at construction, so a typo in demo or
 * test data fails at boot instead of silently dropping the boost.
 */
export interface CurriculumData {
  themes: ReadonlyArray<{ id: string; name: string }>;
  weeks: ReadonlyArray<{ id: string; themeId: string | null }>;
  /** One entry per known employee (their `employee_curriculum_state`). */
  employees: ReadonlyArray<{
    userId: string;
    /** Null when the employee is between programmes or has not started one. */
    currentWeekId: string | null;
  }>;
}

/** The embedded default: answers from in-memory data, resolved once. */
export class LocalCurriculumSource implements CurriculumSource {
  private readonly byUser = new Map<string, CurrentWeek>();

  constructor(data: CurriculumData) {
    const themes = new Map(data.themes.map((t) => [t.id, t]));
    const weeks = new Map(data.weeks.map((w) => [w.id, w]));
    for (const week of data.weeks) {
      if (week.themeId !== null && !themes.has(week.themeId)) {
        throw new ConfigurationError(
          `Curriculum week ${week.id} refers to unknown theme ${week.themeId}.`,
        );
      }
    }
    for (const employee of data.employees) {
      if (this.byUser.has(employee.userId)) {
        throw new ConfigurationError(`Curriculum employee ${employee.userId} is listed twice.`);
      }
      const week = employee.currentWeekId === null ? undefined : weeks.get(employee.currentWeekId);
      if (employee.currentWeekId !== null && !week) {
        throw new ConfigurationError(
          `Curriculum employee ${employee.userId} refers to unknown week ${employee.currentWeekId}.`,
        );
      }
      const theme = week?.themeId ? themes.get(week.themeId) : undefined;
      this.byUser.set(employee.userId, {
        status: 'found',
        themeId: theme?.id ?? null,
        themeName: theme?.name ?? null,
      });
    }
  }

  currentWeek(userId: string, signal?: AbortSignal): Promise<CurrentWeek> {
    // Same contract as the remote provider: a caller that already gave up gets a rejection.
    if (signal?.aborted) {
      return Promise.reject(
        new DependencyError('curriculum_failed', 'Curriculum lookup aborted by the caller.'),
      );
    }
    const found = this.byUser.get(userId);
    return Promise.resolve(found ? { ...found } : { status: 'user_not_found' });
  }

  isHealthy(): Promise<boolean> {
    return Promise.resolve(true);
  }
}
