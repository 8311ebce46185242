import {
  type DynamicModule,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { ConfigModule as NestConfigModule } from '@nestjs/config';

import { APP_CONFIG, type AppConfig } from './app-config';
import { loadConfig } from './load-config';

/** Where the settings come from besides the environment. */
export interface ConfigSources {
  /** `.env` file(s) to read (the first one setting a variable wins); default `./.env`. */
  envFilePath?: string | string[];
  /** Below `.env` and the environment: what applies when neither sets a variable. */
  defaults?: Record<string, string>;
  /** Above both (the CLI's fixed settings, e.g. no demo seed). */
  overrides?: Record<string, string>;
}

/** Says once, through the app's logger, what the config turned off without being asked. */
@Injectable()
export class BootWarning implements OnApplicationBootstrap {
  private readonly logger = new Logger('Config');

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  onApplicationBootstrap(): void {
    if (this.config.bootWarning) {
      this.logger.warn(this.config.bootWarning);
    }
  }
}

/**
 * The service's one config system. `load` reads the settings once: `@nestjs/config` loads
 * `.env` under the real environment (a variable set in both keeps the environment's value)
 * and runs `loadConfig` as its validation, so a bad `.env` fails the boot like a bad
 * variable. `forRoot` makes the typed result injectable everywhere as `APP_CONFIG`; nothing
 * reads `process.env` (or `ConfigService`'s untyped strings) after that.
 *
 * Two steps, not one module: every provider choice is made when `AppModule.forRoot` builds
 * the module graph, so the validated config must exist before Nest does.
 */
@Global()
@Module({})
export class ConfigModule {
  /** Throws `InvalidEnvironmentError` listing every problem of the merged settings. */
  static async load(sources: ConfigSources = {}): Promise<AppConfig> {
    let config: AppConfig | undefined;
    await NestConfigModule.forRoot({
      envFilePath: sources.envFilePath,
      validate: (raw: Record<string, string | undefined>) => {
        config = loadConfig({ ...sources.defaults, ...raw, ...sources.overrides });
        // Returned as read: @nestjs/config copies `.env` into process.env (dotenv's usual
        // effect, for third-party code), never over a variable the environment set.
        return raw;
      },
    });
    if (!config) {
      throw new Error('@nestjs/config did not run the validation');
    }
    return config;
  }

  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: APP_CONFIG, useValue: config }, BootWarning],
      exports: [APP_CONFIG],
    };
  }
}
