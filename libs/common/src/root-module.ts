import { ConfigurableModuleBuilder } from '@nestjs/common';

/**
 * The builder every lib module uses: `forRoot` / `forRootAsync` taking the lib's options plus
 * `isGlobal` (default true: the app mounts each lib once, for every module to inject).
 */
export function configurableRootModule<Options>() {
  return new ConfigurableModuleBuilder<Options>()
    .setClassMethodName('forRoot')
    .setExtras({ isGlobal: true }, (definition, extras) => ({
      ...definition,
      global: extras.isGlobal,
    }))
    .build();
}

/**
 * `defaults` overridden by every value `options` sets; a key present but `undefined` (an
 * unset env variable passed through) keeps its default.
 */
export function withDefaults<T extends object>(defaults: T, options: Partial<T> = {}): T {
  const set = Object.entries(options).filter(([, value]) => value !== undefined);
  return { ...defaults, ...Object.fromEntries(set) };
}
