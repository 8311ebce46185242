import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';

import { ConfigModule } from './config.module';
import { InvalidEnvironmentError, loadConfig } from './load-config';

/** A `.env` file in a fresh directory. */
function envFile(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'cb-env-')), '.env');
  writeFileSync(path, text);
  return path;
}

describe('ConfigModule.load (@nestjs/config + loadConfig)', () => {
  const saved = { ...process.env };
  afterEach(() => {
    // @nestjs/config copies `.env` into process.env: put the test runner's env back.
    for (const name of Object.keys(process.env)) {
      if (!(name in saved)) {
        delete process.env[name];
      }
    }
    Object.assign(process.env, saved);
  });

  it('uses the values of a .env file', async () => {
    const sut = await ConfigModule.load({
      envFilePath: envFile(
        'PORT=4321\nCONTEXT_TIMEOUT_MS=650\n# a comment\nCHAT_COMPANY_NAME="Acme Inc"\n',
      ),
    });
    expect(sut.server.port).toBe(4321);
    expect(sut.context.timeoutMs).toBe(650);
    expect(sut.chat.companyName).toBe('Acme Inc');
  });

  it('lets the real environment win over .env', async () => {
    process.env.PORT = '5555';
    const sut = await ConfigModule.load({ envFilePath: envFile('PORT=4321\nFINAL_K=7\n') });
    expect(sut.server.port).toBe(5555);
    expect(sut.context.finalK).toBe(7);
  });

  it('layers defaults under .env and overrides over the environment (the CLI)', async () => {
    process.env.LOG_LEVEL = 'debug';
    const sut = await ConfigModule.load({
      envFilePath: envFile('SEED_DEMO_DATA=true\nPOOL_K=30\n'),
      defaults: { LOG_LEVEL: 'warn', POOL_K: '10', FINAL_K: '3' },
      overrides: { SEED_DEMO_DATA: 'false' },
    });
    expect(sut.server.logLevel).toBe('debug');
    expect(sut.context).toMatchObject({ poolK: 30, finalK: 3 });
    expect(sut.seedDemoData).toBe(false);
  });

  it('validates .env like the environment: a bad value fails the boot, named', async () => {
    const load = ConfigModule.load({ envFilePath: envFile('PORT=eighty\nLOG_LEVEL=loud\n') });
    await expect(load).rejects.toBeInstanceOf(InvalidEnvironmentError);
    await expect(load).rejects.toMatchObject({
      problems: [expect.stringMatching(/^PORT: /), expect.stringMatching(/^LOG_LEVEL: /)],
    });
  });

  it('runs on the environment alone when there is no .env file', async () => {
    process.env.PORT = '6000';
    const sut = await ConfigModule.load({ envFilePath: join(tmpdir(), 'cb-no-such-dir', '.env') });
    expect(sut.server.port).toBe(6000);
  });
});

describe('ConfigModule.forRoot', () => {
  afterEach(() => jest.restoreAllMocks());

  /** What the module logs at warn while an app on `config` boots. */
  async function bootWarnings(env: Record<string, string>): Promise<unknown[][]> {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const app = await Test.createTestingModule({
      imports: [ConfigModule.forRoot(loadConfig(env))],
    }).compile();
    await app.init();
    await app.close();
    return warn.mock.calls;
  }

  it('says once at boot what production runs without, and how to turn it on', async () => {
    const calls = await bootWarnings({ NODE_ENV: 'production', API_KEYS: `svc:${'a'.repeat(64)}` });
    expect(calls).toEqual([
      [
        expect.stringMatching(
          /PODIUM_PROVIDER and CURRICULUM_PROVIDER unset, so none: no live CRM/,
        ),
      ],
    ]);
  });

  it('says nothing when nothing was turned off unasked', async () => {
    await expect(bootWarnings({ NODE_ENV: 'development' })).resolves.toEqual([]);
  });
});
