import { type CurriculumProviderName } from '@app/curriculum';
import { type PODIUM_PROVIDERS } from '@app/podium';

import { type EnvSchema } from './env.schema';

/**
 * Whether the embedded demo set (local curriculum, demo contacts, demo seed) may run here: always
 * outside production, and in production only when ALLOW_DEMO_PROVIDERS=true says so (a demo
 * or a try-out of the image), because every default of those three is demo data.
 */
export function demoAllowed(env: EnvSchema): boolean {
  return env.NODE_ENV !== 'production' || env.ALLOW_DEMO_PROVIDERS === true;
}

/** The CRM and curriculum the service runs, and what production turned off by default. */
export interface DemoProviderChoice {
  podium: (typeof PODIUM_PROVIDERS)[number];
  curriculum: CurriculumProviderName;
  /** Set when a provider left unset defaulted to `none`: said once at boot. */
  bootWarning?: string;
}

/** How to turn each one on, for the boot warning and the refusal alike. */
const TURN_ON = {
  PODIUM_PROVIDER:
    'PODIUM_PROVIDER=api with PODIUM_CLIENT_ID, PODIUM_CLIENT_SECRET and PODIUM_REFRESH_TOKEN',
  CURRICULUM_PROVIDER:
    'CURRICULUM_PROVIDER=pocketbase with POCKETBASE_URL, POCKETBASE_ADMIN_EMAIL and ' +
    'POCKETBASE_ADMIN_PASSWORD',
} as const;

/** What runs without each one. */
const WHEN_OFF = {
  PODIUM_PROVIDER: 'no live CRM: /context bundles carry history only',
  CURRICULUM_PROVIDER: 'no curriculum: /chat answers without the current-week theme boost',
} as const;

/**
 * Unset providers are the demo ones wherever the demo set may run (`npm start`, a try-out of
 * the image) and `none` elsewhere: production boots without a CRM or a curriculum, and says
 * so, rather than refusing to boot or serving demo data. A provider set explicitly is kept.
 */
export function chooseDemoProviders(env: EnvSchema): DemoProviderChoice {
  const fallback = demoAllowed(env) ? 'local' : 'none';
  const choice: DemoProviderChoice = {
    podium: env.PODIUM_PROVIDER ?? fallback,
    curriculum: env.CURRICULUM_PROVIDER ?? fallback,
  };
  const off = (['PODIUM_PROVIDER', 'CURRICULUM_PROVIDER'] as const).filter(
    (name) => env[name] === undefined && fallback === 'none',
  );
  if (off.length > 0) {
    choice.bootWarning =
      `NODE_ENV=production and ${off.join(' and ')} unset, so none: ` +
      `${off.map((name) => WHEN_OFF[name]).join('; ')}. ` +
      `To turn on: ${off.map((name) => TURN_ON[name]).join('; ')}. ` +
      'Setting none explicitly says it is intended and silences this.';
  }
  return choice;
}

const HOW_TO_ALLOW = 'or ALLOW_DEMO_PROVIDERS=true to run the demo set anyway';

/**
 * What production would otherwise serve from the demo set, one problem per variable, each
 * naming what to set. Only an explicit `local` curriculum is refused: unset means `none`
 * there (`chooseDemoProviders`), so the demo data never serves production by accident. An
 * explicit `PODIUM_PROVIDER=local` is a real CRM once loaded with `contacts import`: the
 * boot checks its table holds imported contacts, not the demo ones (LocalCrmGuard).
 */
export function demoProviderProblems(env: EnvSchema): string[] {
  if (demoAllowed(env)) {
    return [];
  }
  const problems: string[] = [];
  if (env.CURRICULUM_PROVIDER === 'local') {
    problems.push(
      'CURRICULUM_PROVIDER: NODE_ENV=production and the curriculum is the embedded demo one ' +
        `(local). Set ${TURN_ON.CURRICULUM_PROVIDER}, CURRICULUM_PROVIDER=none to answer ` +
        `without a curriculum, ${HOW_TO_ALLOW}.`,
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
