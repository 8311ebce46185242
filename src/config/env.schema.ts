import { AdaptersEnv } from './env/adapters.env';

export { LOG_LEVELS } from './env/server.env';
export { VECTOR_PROVIDERS } from './env/storage.env';
export { EMBEDDING_PROVIDERS, RERANK_PROVIDERS } from './env/models.env';
export { PODIUM_PROVIDERS } from './env/podium.env';
export { CURRICULUM_PROVIDERS, LLM_PROVIDERS } from './env/chat.env';
export { CHAT_AUTH_MODES } from './env/security.env';

/**
 * Every environment variable the service reads, validated once at boot. Nothing else reads
 * `process.env`. Defaults give the embedded mode; `.env.example` documents each variable.
 *
 * One class per concern lives in `env/`; each extends the previous one, so this class
 * carries every decorator (class-validator and class-transformer both walk the prototype
 * chain): server → storage → models → context → podium → chat → security → adapters.
 */
export class EnvSchema extends AdaptersEnv {}
