import { configurableRootModule } from '@app/common';
import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';

import { Database, type DatabaseOptions } from './database';

const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN } = configurableRootModule<DatabaseOptions>();

/** Owns the Postgres connection; closes it after the HTTP server has drained. */
@Module({
  providers: [
    {
      provide: Database,
      inject: [MODULE_OPTIONS_TOKEN],
      useFactory: (o: DatabaseOptions) => new Database(o),
    },
  ],
  exports: [Database],
})
export class DatabaseModule extends ConfigurableModuleClass implements OnApplicationShutdown {
  constructor(@Inject(Database) private readonly database: Database) {
    super();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}
