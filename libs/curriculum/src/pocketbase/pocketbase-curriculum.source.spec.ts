import { DependencyError } from '@app/common';
import PocketBase from 'pocketbase/cjs';

import {
  curriculumCollections,
  type FakePocketBase,
  startFakePocketBase,
} from '../../../../test/fakes/pocketbase-server';
import { waitFor } from '../../../../test/support/wait';
import { PocketBaseCurriculumSource } from './pocketbase-curriculum.source';

const SUPERUSER = { email: 'ops@example.com', password: 'pb-secret-123' };

const seed = () =>
  curriculumCollections({
    themes: [
      { id: 'th_feedback0001', name: 'Feedback culture' },
      { id: 'th_roles0000001', name: 'Roles and governance' },
    ],
    weeks: [
      { id: 'wk_feedback0001', theme: 'th_feedback0001' },
      { id: 'wk_notheme00001', theme: '' },
    ],
    states: [
      { id: 'st_alice0000001', user: 'usr_alice000001', current_week: 'wk_feedback0001' },
      { id: 'st_bob000000001', user: 'usr_bob00000001', current_week: '' },
      { id: 'st_carol0000001', user: 'usr_carol000001', current_week: 'wk_notheme00001' },
      { id: 'st_quote0000001', user: 'o"brien', current_week: 'wk_feedback0001' },
    ],
  });

describe('PocketBaseCurriculumSource (official SDK against a loopback PocketBase)', () => {
  let server: FakePocketBase;

  beforeEach(async () => {
    server = await startFakePocketBase({ superuser: SUPERUSER, collections: seed() });
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await server.close();
  });

  const make = (
    overrides: Partial<ConstructorParameters<typeof PocketBaseCurriculumSource>[0]> = {},
  ) => new PocketBaseCurriculumSource({ url: server.url, ...SUPERUSER, ...overrides });
  const logins = () => server.requests.filter((r) => r.path.endsWith('/auth-with-password'));
  const lookups = () => server.requests.filter((r) => r.path.endsWith('/records'));

  it('logs in as a superuser, then reads state → week → theme in one expanded request', async () => {
    const sut = make();
    await expect(sut.currentWeek('usr_alice000001')).resolves.toEqual({
      status: 'found',
      themeId: 'th_feedback0001',
      themeName: 'Feedback culture',
    });
    expect(logins()).toHaveLength(1);
    expect(lookups()).toEqual([
      {
        method: 'GET',
        path: '/api/collections/employee_curriculum_state/records',
        query: {
          page: '1',
          perPage: '1',
          filter: 'user = "usr_alice000001"',
          expand: 'current_week.theme',
          skipTotal: 'true',
        },
        authorization: expect.stringMatching(/^ey[\w-]+\.[\w-]+\.[\w-]+$/) as string,
      },
    ]);
    // The token is reused while it is unexpired.
    await sut.currentWeek('usr_bob00000001');
    expect(logins()).toHaveLength(1);
    expect(server.unsupported).toEqual([]);
  });

  it('finds an employee with no current week, or a week with no theme, without a theme', async () => {
    const sut = make();
    const none = { status: 'found', themeId: null, themeName: null };
    await expect(sut.currentWeek('usr_bob00000001')).resolves.toEqual(none);
    await expect(sut.currentWeek('usr_carol000001')).resolves.toEqual(none);
  });

  it('reports a userId with no curriculum state as user_not_found', async () => {
    await expect(make().currentWeek('usr_nobody00001')).resolves.toEqual({
      status: 'user_not_found',
    });
  });

  it('binds the userId as data: quotes cannot widen the filter', async () => {
    const sut = make();
    // Unescaped, this would read `user = "x" || user != ""` and match every employee.
    await expect(sut.currentWeek('x" || user != "')).resolves.toEqual({
      status: 'user_not_found',
    });
    await expect(sut.currentWeek("x' || user != '")).resolves.toEqual({
      status: 'user_not_found',
    });
    await expect(sut.currentWeek('o"brien')).resolves.toMatchObject({
      themeId: 'th_feedback0001',
    });
    expect(server.unsupported).toEqual([]);
  });

  it('logs in again once the token has expired, before sending it', async () => {
    await server.close();
    server = await startFakePocketBase({
      superuser: SUPERUSER,
      collections: seed(),
      tokenTtlSeconds: 1,
    });
    const sut = make();
    await sut.currentWeek('usr_alice000001');
    // The token's second passes on a skewed wall clock (the SDK and the fake server both read
    // Date.now for `exp`), not in real time.
    const now = Date.now.bind(Date);
    jest.spyOn(Date, 'now').mockImplementation(() => now() + 1_100);
    await expect(sut.currentWeek('usr_alice000001')).resolves.toMatchObject({
      themeId: 'th_feedback0001',
    });
    expect(logins()).toHaveLength(2);
    // Refreshed proactively: no request went out with the stale token.
    expect(lookups()).toHaveLength(2);
  });

  it('logs in again and retries once when the server stops accepting its token (403)', async () => {
    const sut = make();
    await sut.currentWeek('usr_alice000001');
    server.revokeTokens();
    await expect(sut.currentWeek('usr_alice000001')).resolves.toMatchObject({
      themeId: 'th_feedback0001',
    });
    expect(logins()).toHaveLength(2);
    expect(lookups()).toHaveLength(3);
  });

  it('shares one login between concurrent lookups (auto-cancellation off)', async () => {
    const sut = make();
    const users = ['usr_alice000001', 'usr_bob00000001', 'usr_carol000001', 'usr_nobody00001'];
    const results = await Promise.all(users.map((u) => sut.currentWeek(u)));
    expect(results.map((r) => r.status)).toEqual(['found', 'found', 'found', 'user_not_found']);
    expect(logins()).toHaveLength(1);
  });

  it('observes the shared login a gone caller no longer waits for: its failure is never unhandled', async () => {
    // On Node 20 an unhandled rejection ends the process.
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const sut = make({ password: 'wrong-password' }); // no token yet, and the login will fail
      await expect(sut.currentWeek('usr_alice000001', AbortSignal.abort())).rejects.toMatchObject({
        code: 'curriculum_failed',
        message: 'PocketBase curriculum lookup failed: aborted by the caller',
      });
      // The login went out regardless (it is shared); wait until it has failed and cleared.
      await waitFor('the login to fail', () =>
        Promise.resolve(logins().length === 1 && !sut['authenticating'] ? true : undefined),
      );
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('maps wrong credentials to curriculum_failed without leaking them', async () => {
    const error = await make({ password: 'wrong-password' })
      .currentWeek('usr_alice000001')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyError);
    expect(error).toMatchObject({
      code: 'curriculum_failed',
      httpStatus: 503,
      message: 'PocketBase superuser login failed: HTTP 400: Failed to authenticate.',
    });
    expect((error as Error).message).not.toMatch(/wrong-password|ops@example/);
    expect(lookups()).toHaveLength(0);
  });

  it("maps a server error to curriculum_failed with PocketBase's message", async () => {
    server.script({ status: 500 });
    await expect(make().currentWeek('usr_alice000001')).rejects.toMatchObject({
      code: 'curriculum_failed',
      message:
        'PocketBase curriculum lookup failed: HTTP 500: Something went wrong while processing your request.',
    });
  });

  it('rejects quickly with curriculum_failed when the server is down', async () => {
    const url = server.url;
    await server.close();
    // A timeout far past jest's: waiting for it instead of failing at once hangs the test.
    const error = await new PocketBaseCurriculumSource({ url, ...SUPERUSER, timeoutMs: 3_600_000 })
      .currentWeek('usr_alice000001')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyError);
    expect((error as Error).message).toMatch(/PocketBase is unreachable/);
  });

  it('gives up at its timeout on a slow server, and when the caller aborts', async () => {
    const sut = make({ timeoutMs: 200 });
    await sut.currentWeek('usr_bob00000001'); // log in first
    server.script({ delayMs: 3_000 });
    await expect(sut.currentWeek('usr_alice000001')).rejects.toMatchObject({
      code: 'curriculum_failed',
      message: 'PocketBase curriculum lookup failed: timed out',
    });
    server.script({ delayMs: 3_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(make().currentWeek('usr_alice000001', controller.signal)).rejects.toMatchObject({
      message: 'PocketBase curriculum lookup failed: aborted by the caller',
    });
  });

  it('refuses a state whose current_week does not expand (schema mismatch)', async () => {
    server.collections.employee_curriculum_state.records.push({
      id: 'st_dangling0001',
      user: 'usr_dangling001',
      current_week: 'wk_deleted00001',
    });
    await expect(make().currentWeek('usr_dangling001')).rejects.toMatchObject({
      code: 'curriculum_failed',
      message: expect.stringContaining('current_week as an expanded single relation') as string,
    });
  });

  it('is healthy when the server answers and the login works, unhealthy otherwise', async () => {
    await expect(make().isHealthy()).resolves.toBe(true);
    await expect(make({ password: 'nope' }).isHealthy()).resolves.toBe(false);
    server.script({ status: 503 });
    await expect(make().isHealthy()).resolves.toBe(false);
  });
});

describe('the loopback PocketBase speaks the wire format the SDK expects', () => {
  let server: FakePocketBase;

  beforeAll(async () => {
    server = await startFakePocketBase({ superuser: SUPERUSER, collections: seed() });
  });
  afterAll(() => server.close());

  it("refuses guests with 403 and PocketBase's error body", async () => {
    const response = await fetch(`${server.url}/api/collections/themes/records`);
    expect(response.status).toBe(403);
    await expect(response.json()).resolves.toEqual({
      status: 403,
      message: 'Only superusers can perform this action.',
      data: {},
    });
  });

  it('serves a view with nested expand, and a 404 for an unknown record', async () => {
    const pb = new PocketBase(server.url);
    await pb.collection('_superusers').authWithPassword(SUPERUSER.email, SUPERUSER.password);
    expect(pb.authStore.isSuperuser).toBe(true);
    const state = await pb
      .collection('employee_curriculum_state')
      .getOne('st_alice0000001', { expand: 'current_week.theme' });
    expect(state).toMatchObject({
      collectionName: 'employee_curriculum_state',
      current_week: 'wk_feedback0001',
      expand: {
        current_week: {
          collectionName: 'curriculum_weeks',
          id: 'wk_feedback0001',
          expand: { theme: { id: 'th_feedback0001', name: 'Feedback culture' } },
        },
      },
    });
    await expect(pb.collection('themes').getOne('th_missing00001')).rejects.toMatchObject({
      status: 404,
      response: { message: "The requested resource wasn't found." },
    });
  });

  it('pages lists and refuses filter syntax it does not model', async () => {
    const pb = new PocketBase(server.url);
    await pb.collection('_superusers').authWithPassword(SUPERUSER.email, SUPERUSER.password);
    const page = await pb.collection('employee_curriculum_state').getList(2, 3);
    expect(page).toMatchObject({ page: 2, perPage: 3, totalItems: 4, totalPages: 2 });
    expect(page.items.map((r) => r.id)).toEqual(['st_quote0000001']);
    await expect(
      pb.collection('themes').getList(1, 1, { filter: 'name ~ "Feed"' }),
    ).rejects.toMatchObject({ status: 400 });
    expect(server.unsupported).toEqual(['filter operator "~"']);
    await expect(
      pb.collection('themes').getList(1, 1, { filter: 'nosuchfield = 1' }),
    ).rejects.toMatchObject({ status: 400 });
  });
});
