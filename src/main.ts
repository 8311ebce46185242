import 'reflect-metadata';

import { createApp } from './create-app';
import { InvalidEnvironmentError, loadConfig } from './config/load-config';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof InvalidEnvironmentError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const app = await createApp(config);
  await app.listen({ port: config.server.port, host: '0.0.0.0' });
}

main().catch((error: unknown) => {
  process.stderr.write(`fatal: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
