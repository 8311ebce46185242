import { ConfigurationError, DependencyError } from '@app/common';

import { DEMO_CURRICULUM } from '../../../../src/demo/demo-curriculum';
import { DEMO_TOPICS } from '../../../../src/demo/demo-kb';
import { type CurriculumData, LocalCurriculumSource } from './local-curriculum.source';

const data: CurriculumData = {
  themes: [
    { id: 'th_a', name: 'Theme A' },
    { id: 'th_b', name: 'Theme B' },
  ],
  weeks: [
    { id: 'wk_1', themeId: 'th_a' },
    { id: 'wk_2', themeId: 'th_b' },
    { id: 'wk_open', themeId: null },
  ],
  employees: [
    { userId: 'u_a', currentWeekId: 'wk_1' },
    { userId: 'u_b', currentWeekId: 'wk_2' },
    { userId: 'u_idle', currentWeekId: null },
    { userId: 'u_open', currentWeekId: 'wk_open' },
  ],
};

describe('LocalCurriculumSource', () => {
  const sut = new LocalCurriculumSource(data);

  it("resolves an employee's current week to its theme", async () => {
    await expect(sut.currentWeek('u_a')).resolves.toEqual({
      status: 'found',
      themeId: 'th_a',
      themeName: 'Theme A',
    });
    await expect(sut.currentWeek('u_b')).resolves.toMatchObject({ themeId: 'th_b' });
  });

  it('finds an employee with no current week, or a week without a theme, with no theme', async () => {
    const none = { status: 'found', themeId: null, themeName: null };
    await expect(sut.currentWeek('u_idle')).resolves.toEqual(none);
    await expect(sut.currentWeek('u_open')).resolves.toEqual(none);
  });

  it('reports an unknown userId as user_not_found (ids are exact, not case-folded)', async () => {
    await expect(sut.currentWeek('nobody')).resolves.toEqual({ status: 'user_not_found' });
    await expect(sut.currentWeek('U_A')).resolves.toEqual({ status: 'user_not_found' });
  });

  it('hands out copies, so a caller cannot change what the next caller sees', async () => {
    const first = await sut.currentWeek('u_a');
    (first as { themeId: string | null }).themeId = 'tampered';
    await expect(sut.currentWeek('u_a')).resolves.toMatchObject({ themeId: 'th_a' });
  });

  it('rejects a caller that already gave up, like the remote provider', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await sut.currentWeek('u_a', controller.signal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyError);
    expect(error).toMatchObject({ code: 'curriculum_failed' });
  });

  it('is always healthy', async () => {
    await expect(sut.isHealthy()).resolves.toBe(true);
  });

  it('fails at construction on dangling references or duplicate employees', () => {
    expect(
      () => new LocalCurriculumSource({ ...data, weeks: [{ id: 'wk_x', themeId: 'th_missing' }] }),
    ).toThrow(ConfigurationError);
    expect(
      () =>
        new LocalCurriculumSource({
          ...data,
          employees: [{ userId: 'u', currentWeekId: 'wk_missing' }],
        }),
    ).toThrow(/unknown week wk_missing/);
    expect(
      () =>
        new LocalCurriculumSource({
          ...data,
          employees: [
            { userId: 'u', currentWeekId: null },
            { userId: 'u', currentWeekId: 'wk_1' },
          ],
        }),
    ).toThrow(/listed twice/);
  });
});

describe('DEMO_CURRICULUM', () => {
  const sut = new LocalCurriculumSource(DEMO_CURRICULUM);
  const kbThemes = new Set(DEMO_TOPICS.map((t) => t.theme_id));

  it('puts demo-employee in a week whose theme has demo KB topics', async () => {
    const week = await sut.currentWeek('demo-employee');
    expect(week).toMatchObject({ status: 'found', themeId: expect.any(String) as string });
    expect(kbThemes.has((week as { themeId: string }).themeId)).toBe(true);
  });

  it('has an employee with no current week, for general (unboosted) results', async () => {
    await expect(sut.currentWeek('demo-new-hire')).resolves.toEqual({
      status: 'found',
      themeId: null,
      themeName: null,
    });
  });
});
