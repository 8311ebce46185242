import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test, type TestingModuleBuilder } from '@nestjs/testing';

import { AppModule } from '../../src/app.module';
import { loadConfig } from '../../src/config/load-config';
import { APP_OPTIONS, configureApp, createApp, createFastifyAdapter } from '../../src/create-app';

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
 * Boots the real app (Fastify, real pipes and filters, real store) on a loopback port.
 * `override` may swap providers (e.g. wrap one in a fault switch); everything else is real.
 */
export async function bootTestApp(
  env: Record<string, string> = {},
  override?: (builder: TestingModuleBuilder) => TestingModuleBuilder,
): Promise<TestApp> {
  const config = loadConfig({ ...TEST_ENV, ...env });
  const app = override
    ? configureApp(
        (
          await override(
            Test.createTestingModule({ imports: [AppModule.forRoot(config)] }),
          ).compile()
        ).createNestApplication<NestFastifyApplication>(createFastifyAdapter(), APP_OPTIONS),
      )
    : await createApp(config);
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (error) {
    await app.close().catch(() => undefined); // release workers and the database
    throw error;
  }
  await app.getHttpAdapter().getInstance().ready();
  const address = app.getHttpServer().address() as { port: number };
  return { app, url: `http://127.0.0.1:${address.port}`, close: () => app.close() };
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
  const config = loadConfig({ ...TEST_ENV, ...env });
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot(config), ...imports],
  }).compile();
  const app = configureApp(
    moduleRef.createNestApplication<NestFastifyApplication>(
      createFastifyAdapter(config),
      APP_OPTIONS,
    ),
  );
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  await app.getHttpAdapter().getInstance().ready();
  const address = app.getHttpServer().address() as { port: number };
  return { app, url: `http://127.0.0.1:${address.port}`, close: () => app.close() };
}
