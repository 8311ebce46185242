import { IntersectionType } from '@nestjs/mapped-types';

import { AdaptersEnv } from './env/adapters.env';
import { ChatEnv } from './env/chat.env';
import { ContextEnv } from './env/context.env';
import { ModelsEnv } from './env/models.env';
import { PodiumEnv } from './env/podium.env';
import { SecurityEnv } from './env/security.env';
import { ServerEnv } from './env/server.env';
import { StorageEnv } from './env/storage.env';
import { TelemetryEnv } from './env/telemetry.env';

export { LOG_LEVELS, NODE_ENVS } from './env/server.env';

/**
 * Every environment variable the service reads, validated once at boot. Nothing else reads
 * `process.env`. The classes in `env/` only parse and check (one class per concern); the
 * defaults belong to whoever owns each setting (see `load-config.ts`). `.env.example`
 * documents each variable.
 */
export class EnvSchema extends IntersectionType(
  ServerEnv,
  StorageEnv,
  ModelsEnv,
  ContextEnv,
  PodiumEnv,
  ChatEnv,
  SecurityEnv,
  AdaptersEnv,
  TelemetryEnv,
) {}
