import { type EnvSchema } from './env.schema';

/**
 * Whether the embedded demo set (local curriculum, local CRM, demo seed) may run here: always
 * outside production, and in production only when ALLOW_DEMO_PROVIDERS=true says so (a demo
 * or a try-out of the image), because every default of those three is demo data.
 */
export function demoAllowed(env: EnvSchema): boolean {
  return env.NODE_ENV !== 'production' || env.ALLOW_DEMO_PROVIDERS === true;
}

const HOW_TO_ALLOW = 'or ALLOW_DEMO_PROVIDERS=true to run the demo set anyway';

/**
 * What production would otherwise serve from the demo set, one problem per variable, each
 * naming what to set. The defaults are the demo providers, so a production env that sets
 * nothing gets both provider problems: the operator learns every variable in one boot.
 */
export function demoProviderProblems(env: EnvSchema): string[] {
  if (demoAllowed(env)) {
    return [];
  }
  const problems: string[] = [];
  if ((env.CURRICULUM_PROVIDER ?? 'local') === 'local') {
    problems.push(
      'CURRICULUM_PROVIDER: NODE_ENV=production and the curriculum is the embedded demo one ' +
        '(local, the default). Set CURRICULUM_PROVIDER=pocketbase with POCKETBASE_URL, ' +
        `POCKETBASE_ADMIN_EMAIL and POCKETBASE_ADMIN_PASSWORD, ${HOW_TO_ALLOW}.`,
    );
  }
  if ((env.PODIUM_PROVIDER ?? 'local') === 'local') {
    problems.push(
      'PODIUM_PROVIDER: NODE_ENV=production and the CRM is the embedded demo contacts table ' +
        '(local, the default). Set PODIUM_PROVIDER=api with PODIUM_CLIENT_ID, ' +
        `PODIUM_CLIENT_SECRET and PODIUM_REFRESH_TOKEN, ${HOW_TO_ALLOW}.`,
    );
  }
  if (env.SEED_DEMO_DATA === true) {
    problems.push(
      'SEED_DEMO_DATA: NODE_ENV=production never seeds the demo data set. Unset it or set ' +
        `SEED_DEMO_DATA=false, ${HOW_TO_ALLOW}.`,
    );
  }
  return problems;
}
