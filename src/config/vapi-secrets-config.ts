import {
  type ApiKeyEntry,
  duplicateKeyProblems,
  hashApiKey,
  parseApiKeys,
} from './api-key-entries';
import { type EnvSchema } from './env.schema';

/** The name the legacy VAPI_SECRET goes by in logs and metrics. */
export const LEGACY_VAPI_SECRET_NAME = 'vapi-legacy';

/**
 * Vapi server secrets: VAPI_SECRETS in API_KEYS' format (one per assistant, bound to its
 * locations), plus the legacy VAPI_SECRET as one unbound entry. An unbound secret reads
 * every location, so it is refused once the deployment is multi-tenant (any API key or
 * Vapi secret bound to locations): one secret pasted into every tenant's assistant would
 * let each assistant read every tenant's customers.
 */
export function readVapiSecrets(
  env: Pick<EnvSchema, 'VAPI_SECRET' | 'VAPI_SECRETS'>,
  apiKeys: readonly ApiKeyEntry[],
): { secrets: ApiKeyEntry[]; problems: string[] } {
  const parsed = parseApiKeys(env.VAPI_SECRETS, 'VAPI_SECRETS');
  const secrets = [...parsed.keys];
  if (env.VAPI_SECRET) {
    secrets.push({
      name: LEGACY_VAPI_SECRET_NAME,
      sha256: hashApiKey(env.VAPI_SECRET),
      locations: null,
    });
  }
  const problems = [...parsed.problems, ...duplicateKeyProblems(secrets, 'VAPI_SECRETS')];
  // A secret only ever admits the Vapi route: a scope on it would promise a limit it lacks.
  for (const secret of secrets.filter((s) => s.scopes)) {
    problems.push(`VAPI_SECRETS: "${secret.name}" has ;scopes=, which Vapi secrets do not take`);
  }
  const multiTenant = [...apiKeys, ...secrets].some((entry) => entry.locations !== null);
  if (multiTenant) {
    for (const secret of secrets.filter((s) => s.locations === null)) {
      problems.push(
        secret.name === LEGACY_VAPI_SECRET_NAME
          ? 'VAPI_SECRET: keys are bound to locations, so one unbound Vapi secret would read every tenant; configure VAPI_SECRETS (name:sha256hex:locA|locB, one per assistant) instead'
          : `VAPI_SECRETS: "${secret.name}" is bound to no location while other keys are; bind it (name:sha256hex:locA|locB)`,
      );
    }
  }
  return { secrets, problems };
}
