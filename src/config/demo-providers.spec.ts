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
const REAL_CURRICULUM = {
  CURRICULUM_PROVIDER: 'pocketbase',
  POCKETBASE_URL: 'http://pocketbase.internal:8090',
  POCKETBASE_ADMIN_EMAIL: 'r42@example.com',
  POCKETBASE_ADMIN_PASSWORD: 'secret',
};
const REAL_PROVIDERS = {
  ...REAL_CURRICULUM,
  PODIUM_PROVIDER: 'api',
  PODIUM_CLIENT_ID: 'id',
  PODIUM_CLIENT_SECRET: 'secret',
  PODIUM_REFRESH_TOKEN: 'token',
};

describe('loadConfig: no demo set in production', () => {
  it('boots NODE_ENV=production with no provider set on none, saying what is off and how to turn it on', () => {
    const sut = loadConfig({ NODE_ENV: 'production', ...KEYS });
    expect([sut.podium.provider, sut.curriculum.provider, sut.seedDemoData]).toEqual([
      'none',
      'none',
      false,
    ]);
    expect(sut.bootWarning).toMatch(/PODIUM_PROVIDER and CURRICULUM_PROVIDER unset, so none/);
    expect(sut.bootWarning).toMatch(
      /PODIUM_PROVIDER=api with PODIUM_CLIENT_ID, PODIUM_CLIENT_SECRET and PODIUM_REFRESH_TOKEN/,
    );
    expect(sut.bootWarning).toMatch(
      /CURRICULUM_PROVIDER=pocketbase with POCKETBASE_URL, POCKETBASE_ADMIN_EMAIL and POCKETBASE_ADMIN_PASSWORD/,
    );
  });

  it('warns only about the provider left unset, and not at all about an explicit none', () => {
    const one = loadConfig({ NODE_ENV: 'production', ...KEYS, ...REAL_CURRICULUM });
    expect([one.podium.provider, one.curriculum.provider]).toEqual(['none', 'pocketbase']);
    expect(one.bootWarning).toMatch(
      /^NODE_ENV=production and PODIUM_PROVIDER unset, so none: no live CRM/,
    );
    expect(one.bootWarning).not.toMatch(/CURRICULUM/);

    const chosen = loadConfig({
      NODE_ENV: 'production',
      ...KEYS,
      PODIUM_PROVIDER: 'none',
      CURRICULUM_PROVIDER: 'none',
    });
    expect([chosen.podium.provider, chosen.curriculum.provider]).toEqual(['none', 'none']);
    expect(chosen.bootWarning).toBeUndefined();
  });

  it('refuses a demo provider named explicitly, and an explicit demo seed, naming none as a way out', () => {
    const problems = problemsOf({
      NODE_ENV: 'production',
      ...KEYS,
      ...REAL_PROVIDERS,
      CURRICULUM_PROVIDER: 'local',
      SEED_DEMO_DATA: 'true',
    });
    expect(problems.map((p) => p.split(':')[0])).toEqual(['CURRICULUM_PROVIDER', 'SEED_DEMO_DATA']);
    expect(problems[0]).toMatch(
      /CURRICULUM_PROVIDER=pocketbase with POCKETBASE_URL, POCKETBASE_ADMIN_EMAIL and POCKETBASE_ADMIN_PASSWORD, CURRICULUM_PROVIDER=none .*, or ALLOW_DEMO_PROVIDERS=true/,
    );
  });

  it('takes an explicit local CRM in production as imported-only, checked at boot (LocalCrmGuard)', () => {
    const sut = loadConfig({ NODE_ENV: 'production', ...KEYS, PODIUM_PROVIDER: 'local' });
    expect(sut.podium.provider).toBe('local');
    expect(sut.localCrmImportedOnly).toBe(true);
    expect(sut.seedDemoData).toBe(false);
    const demo = { NODE_ENV: 'production', ...KEYS, PODIUM_PROVIDER: 'local' };
    expect(loadConfig({ ...demo, ALLOW_DEMO_PROVIDERS: 'true' }).localCrmImportedOnly).toBe(false);
    expect(
      loadConfig({ NODE_ENV: 'development', PODIUM_PROVIDER: 'local' }).localCrmImportedOnly,
    ).toBe(false);
  });

  it('refuses a provider name it does not know, in production too', () => {
    expect(
      problemsOf({
        NODE_ENV: 'production',
        ...KEYS,
        PODIUM_PROVIDER: 'None',
        CURRICULUM_PROVIDER: '',
      }),
    ).toEqual([
      expect.stringMatching(
        /^PODIUM_PROVIDER: PODIUM_PROVIDER must be one of the following values: local, api, none$/,
      ),
      expect.stringMatching(
        /^CURRICULUM_PROVIDER: CURRICULUM_PROVIDER must be one of the following values: local, pocketbase, none$/,
      ),
    ]);
  });

  it('boots production on real providers, seeding nothing even on the embedded store', () => {
    const sut = loadConfig({ NODE_ENV: 'production', ...KEYS, ...REAL_PROVIDERS });
    expect(sut.curriculum.provider).toBe('pocketbase');
    expect(sut.podium.provider).toBe('api');
    expect(sut.seedDemoData).toBe(false);
    expect(sut.bootWarning).toBeUndefined();
  });

  it('runs the demo set in production only when ALLOW_DEMO_PROVIDERS=true', () => {
    const sut = loadConfig({ NODE_ENV: 'production', ...KEYS, ALLOW_DEMO_PROVIDERS: 'true' });
    expect(sut.curriculum.provider).toBe('local');
    expect(sut.podium.provider).toBe('local');
    expect(sut.seedDemoData).toBe(true);
    expect(sut.bootWarning).toBeUndefined();
    const explicit = loadConfig({
      NODE_ENV: 'production',
      ...KEYS,
      ALLOW_DEMO_PROVIDERS: 'true',
      PODIUM_PROVIDER: 'local',
      CURRICULUM_PROVIDER: 'local',
    });
    expect([explicit.podium.provider, explicit.curriculum.provider]).toEqual(['local', 'local']);
    expect(problemsOf({ NODE_ENV: 'production', ...KEYS, ALLOW_DEMO_PROVIDERS: 'yes' })).toContain(
      'ALLOW_DEMO_PROVIDERS: ALLOW_DEMO_PROVIDERS must be true, false, 1 or 0',
    );
  });

  it('leaves development and test on the demo set by default, and takes none there too', () => {
    for (const NODE_ENV of ['development', 'test']) {
      const sut = loadConfig({ NODE_ENV });
      expect([sut.curriculum.provider, sut.podium.provider, sut.seedDemoData]).toEqual([
        'local',
        'local',
        true,
      ]);
      expect(sut.bootWarning).toBeUndefined();
      const none = loadConfig({ NODE_ENV, PODIUM_PROVIDER: 'none', CURRICULUM_PROVIDER: 'none' });
      expect([none.podium.provider, none.curriculum.provider]).toEqual(['none', 'none']);
    }
  });
});
