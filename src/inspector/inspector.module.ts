import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

import { ContactsController } from './contacts.controller';
import { InspectorController } from './inspector.controller';
import { InspectorAssets } from './inspector-assets';

/** `GET /inspect` (the explain mode in a browser) and `GET /contacts`, its contact picker. */
@Module({ controllers: [ContactsController, InspectorController], providers: [InspectorAssets] })
export class InspectorModule implements OnModuleInit {
  constructor(
    private readonly adapter: HttpAdapterHost,
    private readonly assets: InspectorAssets,
  ) {}

  async onModuleInit(): Promise<void> {
    // The CLI boots the same modules without an HTTP server: nothing to serve there.
    if (this.adapter.httpAdapter) {
      await this.assets.load();
    }
  }
}
