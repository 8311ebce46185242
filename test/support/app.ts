import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test, type TestingModuleBuilder } from '@nestjs/testing';

import { AppModule } from '../../src/app.module';
import { loadConfig } from '../../src/config/load-config';
import { APP_OPTIONS, configureApp, createApp, createFastifyAdapter } from '../../src/create-app';
import { engineEnv } from './postgres';

export interface TestApp {
  app: NestFastifyApplication;
  url: string;
  close(): Promise<void>;
}

/** Env every e2e app starts from: in-memory PGlite, no demo seed, quiet logs, one worker. */
export const TEST_ENV: Record<string, string> = {
  DATA_DIR: 'memory://',
  SEED_DEMO_DATA: 'false',
  LOG_LEVEL: 'silent',
  EMBEDDING_WORKERS: '1',
  NODE_ENV: 'test',
};

/**
 * A fresh database on the project's engine (see `postgres.ts`) unless the test names its own
 * (`DATA_DIR` on disk, `DATABASE_URL`). Returns the env to boot with and what drops it.
 */
async function withEngine(env: Record<string, string>) {
  const own = env.DATABASE_URL !== undefined || (env.DATA_DIR ?? 'memory://') !== 'memory://';
  const engine = own ? { env: {}, release: () => Promise.resolve() } : await engineEnv();
  return { env: { ...TEST_ENV, ...engine.env, ...env }, release: engine.release };
}

/** Listens on a loopback port; a failed start still releases workers and the database. */
async function listen(app: NestFastifyApplication, release: () => Promise<void>): Promise<TestApp> {
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (error) {
    await app.close().catch(() => undefined);
    await release();
    throw error;
  }
  await app.getHttpAdapter().getInstance().ready();
  const address = app.getHttpServer().address() as { port: number };
  return {
    app,
    url: `http://127.0.0.1:${address.port}`,
    close: async () => {
      await app.close();
      await release();
    },
  };
}

/**
 * Boots the real app (Fastify, real pipes and filters, real store) on a loopback port.
 * `override` may swap providers (e.g. wrap one in a fault switch); everything else is real.
 */
export async function bootTestApp(
  env: Record<string, string> = {},
  override?: (builder: TestingModuleBuilder) => TestingModuleBuilder,
): Promise<TestApp> {
  const engine = await withEngine(env);
  const config = loadConfig(engine.env);
  const app = override
    ? configureApp(
        (
          await override(
            Test.createTestingModule({ imports: [AppModule.forRoot(config)] }),
          ).compile()
        ).createNestApplication<NestFastifyApplication>(createFastifyAdapter(), APP_OPTIONS),
      )
    : await createApp(config).catch(async (error: unknown) => {
        await engine.release();
        throw error;
      });
  return listen(app, engine.release);
}

/** JSON POST helper returning status, headers and parsed body. */
export async function postJson<T = unknown>(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T; headers: Headers }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : undefined) as T,
    headers: response.headers,
  };
}

/**
 * Like {@link bootTestApp}, with extra modules next to the app (e.g. a probe controller that
 * exercises a guard through the real HTTP stack, filters and global guards).
 */
export async function bootTestAppWith(
  env: Record<string, string>,
  imports: NonNullable<Parameters<typeof Test.createTestingModule>[0]['imports']>,
): Promise<TestApp> {
  const engine = await withEngine(env);
  const config = loadConfig(engine.env);
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot(config), ...imports],
  }).compile();
  const app = configureApp(
    moduleRef.createNestApplication<NestFastifyApplication>(
      createFastifyAdapter(config),
      APP_OPTIONS,
    ),
  );
  return listen(app, engine.release);
}
