import { InvalidEnvironmentError, loadConfig } from './load-config';

/** The problems loadConfig throws for `env`, or [] when it accepts it. */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof InvalidEnvironmentError) {
      return error.problems;
    }
    throw error;
  }
}

const KEYS = { API_KEYS: `svc:${'a'.repeat(64)}` };
/** Production with real providers: what deploy/ sets (placeholders for the secrets). */
const REAL_PROVIDERS = {
  CURRICULUM_PROVIDER: 'pocketbase',
  POCKETBASE_URL: 'http://pocketbase.internal:8090',
  POCKETBASE_ADMIN_EMAIL: 'r42@example.com',
  POCKETBASE_ADMIN_PASSWORD: 'secret',
  PODIUM_PROVIDER: 'api',
  PODIUM_CLIENT_ID: 'id',
  PODIUM_CLIENT_SECRET: 'secret',
  PODIUM_REFRESH_TOKEN: 'token',
};

describe('loadConfig: no demo set in production', () => {
  it('refuses NODE_ENV=production with no provider set, naming every variable to set', () => {
    const problems = problemsOf({ NODE_ENV: 'production', ...KEYS });
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'CURRICULUM_PROVIDER',
      'PODIUM_PROVIDER',
    ]);
    expect(problems[0]).toMatch(
      /CURRICULUM_PROVIDER=pocketbase with POCKETBASE_URL, POCKETBASE_ADMIN_EMAIL and POCKETBASE_ADMIN_PASSWORD, or ALLOW_DEMO_PROVIDERS=true/,
    );
    expect(problems[1]).toMatch(
      /PODIUM_PROVIDER=api with PODIUM_CLIENT_ID, PODIUM_CLIENT_SECRET and PODIUM_REFRESH_TOKEN, or ALLOW_DEMO_PROVIDERS=true/,
    );
  });

  it('refuses a demo provider named explicitly, and an explicit demo seed', () => {
    const problems = problemsOf({
      NODE_ENV: 'production',
      ...KEYS,
      ...REAL_PROVIDERS,
      CURRICULUM_PROVIDER: 'local',
      SEED_DEMO_DATA: 'true',
    });
    expect(problems.map((p) => p.split(':')[0])).toEqual(['CURRICULUM_PROVIDER', 'SEED_DEMO_DATA']);
  });

  it('boots production on real providers, seeding nothing even on the embedded store', () => {
    const sut = loadConfig({ NODE_ENV: 'production', ...KEYS, ...REAL_PROVIDERS });
    expect(sut.curriculum.provider).toBe('pocketbase');
    expect(sut.podium.provider).toBe('api');
    expect(sut.seedDemoData).toBe(false);
  });

  it('runs the demo set in production only when ALLOW_DEMO_PROVIDERS=true', () => {
    const sut = loadConfig({ NODE_ENV: 'production', ...KEYS, ALLOW_DEMO_PROVIDERS: 'true' });
    expect(sut.curriculum.provider).toBe('local');
    expect(sut.podium.provider).toBe('local');
    expect(sut.seedDemoData).toBe(true);
    expect(problemsOf({ NODE_ENV: 'production', ...KEYS, ALLOW_DEMO_PROVIDERS: 'yes' })).toContain(
      'ALLOW_DEMO_PROVIDERS: ALLOW_DEMO_PROVIDERS must be true, false, 1 or 0',
    );
  });

  it('leaves development and test on the demo set by default', () => {
    for (const NODE_ENV of ['development', 'test']) {
      const sut = loadConfig({ NODE_ENV });
      expect([sut.curriculum.provider, sut.podium.provider, sut.seedDemoData]).toEqual([
        'local',
        'local',
        true,
      ]);
    }
  });
});
