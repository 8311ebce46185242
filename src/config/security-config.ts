import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';

import { type ApiKeyEntry, duplicateKeyProblems, parseApiKeys } from './api-key-entries';
import { type AppConfig, type ChatAuthConfig, type TrustProxy } from './app-config';
import { type EnvSchema } from './env.schema';
import { parseEnvBoolean } from './env/decorators';

/** Defaults: about one replica's measured /search ceiling per key; half of it per bare IP. */
const DEFAULT_PER_KEY_PER_MINUTE = 6000;
const DEFAULT_PER_IP_PER_MINUTE = 3000;
/** One bulk upload at a time: ingestion embeds on the same workers /context needs. */
const DEFAULT_INGEST_MAX_INFLIGHT = 1;

const ORIGIN = /^https?:\/\/[^/\s?#]+$/;

export interface SecuritySettings {
  security: AppConfig['security'];
  limits: AppConfig['limits'];
  trustProxy: TrustProxy;
  ingestMaxInFlight: number;
}

/**
 * The security part of the config, with every problem found in it. Parsed once here, so
 * `loadConfig` can list these problems with all the others (the server's ApiKeyService then
 * follows API_KEYS_FILE for changes).
 */
export function readSecuritySettings(env: EnvSchema): {
  settings: SecuritySettings;
  problems: string[];
} {
  const problems: string[] = [];
  const { apiKeys, fixedKeys } = readApiKeys(env, problems);
  if (env.NODE_ENV === 'production' && apiKeys.length === 0 && problems.length === 0) {
    problems.push(
      'API_KEYS: NODE_ENV=production and no API key is configured, so the service refuses to ' +
        'run open. Set API_KEYS or API_KEYS_FILE (create a key with `npx context-bridge keys new NAME`).',
    );
  }
  const corsOrigins = splitList(env.CORS_ORIGINS);
  const badOrigins = corsOrigins.filter((o) => o !== '*' && !ORIGIN.test(o));
  if (badOrigins.length > 0) {
    problems.push(
      `CORS_ORIGINS: ${badOrigins.join(', ')} is not an origin like https://app.example.com (scheme and host, no path)`,
    );
  }
  if (corsOrigins.includes('*') && corsOrigins.length > 1) {
    problems.push('CORS_ORIGINS: `*` allows every origin; list no other origin with it');
  }
  return {
    settings: {
      security: {
        apiKeys,
        apiKeysFile: env.API_KEYS_FILE ? { path: env.API_KEYS_FILE, fixedKeys } : undefined,
        metricsRequireKey: env.METRICS_REQUIRE_KEY ?? false,
        chatAuth: chatAuth(env, problems),
        corsOrigins,
      },
      limits: {
        perKeyPerMinute: env.RATE_LIMIT_PER_KEY_PER_MINUTE ?? DEFAULT_PER_KEY_PER_MINUTE,
        perIpPerMinute: env.RATE_LIMIT_PER_IP_PER_MINUTE ?? DEFAULT_PER_IP_PER_MINUTE,
      },
      trustProxy: trustProxy(env.TRUST_PROXY, problems),
      ingestMaxInFlight: env.INGEST_MAX_INFLIGHT ?? DEFAULT_INGEST_MAX_INFLIGHT,
    },
    problems,
  };
}

function readApiKeys(
  env: EnvSchema,
  problems: string[],
): { apiKeys: ApiKeyEntry[]; fixedKeys: ApiKeyEntry[] } {
  const fromEnv = parseApiKeys(env.API_KEYS, 'API_KEYS');
  let fromFile: ReturnType<typeof parseApiKeys> = { keys: [], problems: [] };
  if (env.API_KEYS_FILE) {
    try {
      fromFile = parseApiKeys(readFileSync(env.API_KEYS_FILE, 'utf8'), 'API_KEYS_FILE');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      problems.push(`API_KEYS_FILE: cannot read ${env.API_KEYS_FILE} (${code})`);
    }
  }
  const keys = [...fromEnv.keys, ...fromFile.keys];
  problems.push(...fromEnv.problems, ...fromFile.problems, ...duplicateKeyProblems(keys));
  return { apiKeys: keys, fixedKeys: fromEnv.keys };
}

function chatAuth(env: EnvSchema, problems: string[]): ChatAuthConfig {
  // CHAT_AUTH=none lets anyone ask as any employee: the R42 spec's default and a laptop's,
  // but production gets it only when said so (or for a try-out of the image). Unset there,
  // /chat is closed rather than the boot refused: production boots on an API key alone.
  if (env.NODE_ENV === 'production' && env.CHAT_AUTH === undefined && !env.ALLOW_DEMO_PROVIDERS) {
    return { mode: 'closed' };
  }
  if (env.CHAT_AUTH !== 'jwt') {
    return { mode: 'none' };
  }
  if (!env.CHAT_JWT_SECRET === !env.CHAT_JWKS_URL) {
    problems.push(
      'CHAT_JWT_SECRET: set exactly one of CHAT_JWT_SECRET or CHAT_JWKS_URL when CHAT_AUTH=jwt',
    );
  }
  const audience = splitList(env.CHAT_JWT_AUDIENCE);
  return {
    mode: 'jwt',
    secret: env.CHAT_JWT_SECRET,
    jwksUrl: env.CHAT_JWKS_URL,
    issuer: env.CHAT_JWT_ISSUER,
    audience: audience.length > 0 ? audience : undefined,
  };
}

function trustProxy(value: string | undefined, problems: string[]): TrustProxy {
  const flag = value === undefined ? false : parseEnvBoolean(value);
  if (value === undefined || flag === false) {
    return false;
  }
  // Fastify's `true` trusts every hop, so the leftmost X-Forwarded-For entry (written by the
  // client itself) would become the client IP and per-IP limits could be dodged at will.
  // `true` here means "one proxy in front of us": its own entry, the rightmost, is believed.
  if (flag === true) {
    return 1;
  }
  if (/^\d+$/.test(value)) {
    return Number(value);
  }
  const entries = splitList(value);
  const bad = entries.filter((entry) => {
    const [address, prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    const maxPrefix = family === 6 ? 128 : 32;
    return (
      family === 0 ||
      rest.length > 0 ||
      (prefix !== undefined && !(/^\d+$/.test(prefix) && Number(prefix) <= maxPrefix))
    );
  });
  if (bad.length > 0 || entries.length === 0) {
    problems.push(
      `TRUST_PROXY: expected true, false, a hop count or a comma list of IPs/CIDRs (bad: ${bad.join(', ')})`,
    );
  }
  return entries;
}

const splitList = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
