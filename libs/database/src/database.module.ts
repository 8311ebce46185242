import { configurableRootModule } from '@app/common';
import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { Database, type DatabaseOptions } from './database';
import { DatabaseOpener } from './database-opener';
import { StoreModelFollower } from './reembed/store-model-follower';

const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN } = configurableRootModule<DatabaseOptions>();

/**
 * Owns the Postgres connection: opens and migrates it at module init ({@link DatabaseOpener}),
 * whatever else runs, and closes it after the HTTP server has drained.
 */
@Module({
  providers: [
    {
      provide: Database,
      inject: [MODULE_OPTIONS_TOKEN],
      useFactory: (o: DatabaseOptions) => new Database(o),
    },
    // TypeORM's DataSource, opened with the database (after the migrations), closed with it.
    { provide: DataSource, inject: [Database], useFactory: (db: Database) => db.dataSource },
    DatabaseOpener,
    StoreModelFollower,
  ],
  exports: [Database, DataSource, StoreModelFollower],
})
export class DatabaseModule extends ConfigurableModuleClass implements OnApplicationShutdown {
  constructor(@Inject(Database) private readonly database: Database) {
    super();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}
