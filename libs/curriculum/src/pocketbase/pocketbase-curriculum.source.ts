import { DependencyError, untilAborted } from '@app/common';
// The package's main entry is ESM-only; `pocketbase/cjs` is its documented CommonJS build.
import PocketBase from 'pocketbase/cjs';

import { type CurrentWeek, type CurriculumSource } from '../interfaces/curriculum-source.interface';

export interface PocketBaseCurriculumOptions {
  /** Base URL of a PocketBase ≥ 0.23 server (superusers live in `_superusers`). */
  url: string;
  /** A superuser's credentials: the curriculum collections are superuser-only. */
  email: string;
  password: string;
  /** Ceiling for one lookup, login included, when the caller's signal does not end it sooner. */
  timeoutMs?: number;
}

/** `employee_curriculum_state` row, filtered by its `user` relation. */
const STATE_COLLECTION = 'employee_curriculum_state';
/** state.current_week → curriculum_weeks, week.theme → themes: one request, both hops. */
const EXPAND = 'current_week.theme';

interface ThemeRecord {
  id: string;
  name?: unknown;
}
interface WeekRecord {
  id: string;
  theme?: unknown;
  expand?: { theme?: ThemeRecord };
}
interface StateRecord {
  id: string;
  current_week?: unknown;
  expand?: { current_week?: WeekRecord };
}

/**
 * Reads an employee's current-week theme from PocketBase through the official SDK, as a
 * superuser, in one request: `employee_curriculum_state` filtered by `user` with
 * `expand=current_week.theme`. No state row means the employee is unknown; a row with an
 * empty `current_week` is an employee between programmes (found, no theme).
 */
export class PocketBaseCurriculumSource implements CurriculumSource {
  private readonly pb: PocketBase;
  private readonly timeoutMs: number;
  private authenticating?: Promise<void>;

  constructor(private readonly options: PocketBaseCurriculumOptions) {
    this.pb = new PocketBase(options.url);
    // By default the SDK aborts a pending request when another one to the same path starts:
    // two employees chatting at once would cancel each other's lookups.
    this.pb.autoCancellation(false);
    this.timeoutMs = options.timeoutMs ?? 2000;
  }

  async currentWeek(userId: string, signal?: AbortSignal): Promise<CurrentWeek> {
    const deadline = AbortSignal.any([
      AbortSignal.timeout(this.timeoutMs),
      ...(signal ? [signal] : []),
    ]);
    let state: StateRecord | undefined;
    try {
      const page = await this.authorized(deadline, () =>
        this.pb.collection(STATE_COLLECTION).getList<StateRecord>(1, 1, {
          // pb.filter quotes and escapes the value: a userId cannot change the expression.
          filter: this.pb.filter('user = {:userId}', { userId }),
          expand: EXPAND,
          skipTotal: true,
          signal: deadline,
        }),
      );
      state = page.items[0];
    } catch (error) {
      throw error instanceof DependencyError
        ? error
        : new DependencyError(
            'curriculum_failed',
            `PocketBase curriculum lookup failed: ${describe(error, signal, deadline)}`,
          );
    }
    return state ? toCurrentWeek(state) : { status: 'user_not_found' };
  }

  /** Up when the server answers its health route and the superuser login works. Never throws. */
  async isHealthy(): Promise<boolean> {
    const deadline = AbortSignal.timeout(this.timeoutMs);
    try {
      await this.pb.health.check({ signal: deadline });
      await this.authenticate(deadline);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Runs `request` with a superuser token, logging in again once if the server refuses the
   * token. PocketBase treats a token it no longer accepts (new server secret, superuser
   * password changed) as a guest, which gets 403 on superuser-only collections; a proxy in
   * front may answer 401.
   */
  private async authorized<T>(deadline: AbortSignal, request: () => Promise<T>): Promise<T> {
    await this.authenticate(deadline);
    const token = this.pb.authStore.token;
    try {
      return await request();
    } catch (error) {
      if (!hasStatus(error, 401, 403)) {
        throw error;
      }
      // Another caller may already have replaced the refused token with a fresh one.
      if (this.pb.authStore.token === token) {
        this.pb.authStore.clear();
      }
      await this.authenticate(deadline);
      return request();
    }
  }

  /**
   * Logs in unless the stored token is still unexpired (`isValid` reads the JWT `exp`).
   * Concurrent callers share one login, bounded by its own timeout rather than by the first
   * caller's signal, so one impatient caller cannot fail everyone else's login.
   */
  private async authenticate(deadline: AbortSignal): Promise<void> {
    if (this.pb.authStore.isValid) {
      return;
    }
    const timeout = AbortSignal.timeout(this.timeoutMs);
    this.authenticating ??= this.pb
      .collection('_superusers')
      .authWithPassword(this.options.email, this.options.password, { signal: timeout })
      .then(
        () => undefined,
        (error: unknown) => {
          throw new DependencyError(
            'curriculum_failed',
            `PocketBase superuser login failed: ${describe(error, undefined, timeout)}`,
          );
        },
      )
      .finally(() => {
        this.authenticating = undefined;
      });
    await untilAborted(this.authenticating, deadline);
  }
}

/** Maps the expanded state row to the port's answer, refusing shapes the schema does not allow. */
function toCurrentWeek(state: StateRecord): CurrentWeek {
  const weekId = relationId(state.current_week, 'current_week');
  if (!weekId) {
    return { status: 'found', themeId: null, themeName: null };
  }
  const week = state.expand?.current_week;
  if (week?.id !== weekId) {
    // PocketBase silently skips an expand path it cannot resolve (a renamed field, a
    // relation to another collection): say so instead of quietly dropping the boost.
    throw schemaMismatch('current_week');
  }
  const themeId = relationId(week.theme, 'current_week.theme');
  if (!themeId) {
    return { status: 'found', themeId: null, themeName: null };
  }
  const theme = week.expand?.theme;
  if (theme?.id !== themeId) {
    throw schemaMismatch('current_week.theme');
  }
  return {
    status: 'found',
    themeId,
    themeName: typeof theme.name === 'string' ? theme.name : null,
  };
}

/** A single relation's value: a record id, or '' when empty. */
function relationId(value: unknown, field: string): string | null {
  if (value === undefined || value === null || value === '') {
    return null;
  }
  if (typeof value !== 'string') {
    throw schemaMismatch(field);
  }
  return value;
}

function schemaMismatch(field: string): DependencyError {
  return new DependencyError(
    'curriculum_failed',
    `PocketBase did not return ${field} as an expanded single relation; check the curriculum schema.`,
  );
}

function hasStatus(error: unknown, ...statuses: number[]): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && statuses.includes(status);
}

/**
 * A short, secret-free reason: who gave up (the caller or our deadline), else the HTTP
 * status and PocketBase's `message` from the SDK's `ClientResponseError` (read
 * structurally: the CommonJS build does not export the class).
 */
function describe(error: unknown, caller?: AbortSignal, deadline?: AbortSignal): string {
  if (caller?.aborted) {
    return 'aborted by the caller';
  }
  if (deadline?.aborted) {
    return 'timed out';
  }
  const e = error as { status?: unknown; response?: { message?: unknown } } | null;
  if (typeof e?.status === 'number' && e.status > 0) {
    const message = typeof e.response?.message === 'string' ? `: ${e.response.message}` : '';
    return `HTTP ${e.status}${message}`;
  }
  return 'PocketBase is unreachable';
}
