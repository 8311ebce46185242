import { type CurriculumData } from '@app/curriculum';

import { DEMO_THEMES } from './demo-kb';

/**
 * The embedded curriculum behind `CURRICULUM_PROVIDER=local`: one week per demo KB theme and
 * a few employees. `demo-employee` is in the feedback week, so feedback topics get the
 * current-week boost; `demo-new-hire` has no current week (general results, no boost).
 */
export const DEMO_CURRICULUM: CurriculumData = {
  themes: DEMO_THEMES.map((t) => ({ id: t.theme_id, name: t.name })),
  weeks: [
    { id: 'week_1_roles', themeId: 'theme_roles' },
    { id: 'week_2_feedback', themeId: 'theme_feedback' },
    { id: 'week_3_meetings', themeId: 'theme_meetings' },
  ],
  employees: [
    { userId: 'demo-employee', currentWeekId: 'week_2_feedback' },
    { userId: 'demo-facilitator', currentWeekId: 'week_3_meetings' },
    { userId: 'demo-new-hire', currentWeekId: null },
  ],
};
