/**
 * CurriculumModule: an employee's current-week theme, read through
 * employee_curriculum_state → curriculum_weeks → theme. R42 chat boosts hits of that theme.
 *
 * - `CurriculumSource` / `CURRICULUM_SOURCE`: the port; inject with `@Inject(CURRICULUM_SOURCE)`.
 * - `CurriculumModule.forRoot({ provider, ... })`: `local` (embedded data), `pocketbase` (the
 *   official SDK, as a superuser, one request with relation expansion) or `none` (no
 *   curriculum: every employee has no current week, so nothing is boosted).
 *
 * Unknown employees resolve to `{ status: 'user_not_found' }`; `pocketbase` rejects with
 * `DependencyError('curriculum_failed')` when the server fails, times out or returns a shape
 * the schema does not allow.
 */
export { CurriculumModule } from './curriculum.module';
export {
  CURRICULUM_OPTIONS,
  CURRICULUM_PROVIDERS,
  type CurriculumModuleOptions,
  type CurriculumProviderName,
} from './curriculum.module-definition';
export { createCurriculumSource } from './curriculum.providers';
export * from './interfaces/curriculum-source.interface';
export { type CurriculumData, LocalCurriculumSource } from './local/local-curriculum.source';
export { NoneCurriculumSource } from './none/none-curriculum.source';
export {
  PocketBaseCurriculumSource,
  type PocketBaseCurriculumOptions,
} from './pocketbase/pocketbase-curriculum.source';
