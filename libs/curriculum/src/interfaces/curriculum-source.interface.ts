/**
 * An employee's place in the curriculum, read through
 * employee_curriculum_state → curriculum_weeks → theme.
 */
export type CurrentWeek =
  | {
      status: 'found';
      /** The current week's theme id, or null when the employee has no current week. */
      themeId: string | null;
      themeName: string | null;
    }
  | { status: 'user_not_found' };

/** The port every curriculum source (`local`, `pocketbase`, `none`) implements. */
export interface CurriculumSource {
  currentWeek(userId: string, signal?: AbortSignal): Promise<CurrentWeek>;
  /** Resolves true when the source can answer. Never throws. */
  isHealthy(): Promise<boolean>;
}

export const CURRICULUM_SOURCE = 'CURRICULUM_SOURCE';
