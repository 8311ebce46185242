import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { type FastifyInstance } from 'fastify';

import { sendDemoPage, WidgetController } from './widget.controller';
import { WidgetAssets } from './widget-assets.service';

/** Serves the `<r42-chat>` bundle (`GET /widget/r42-chat.js`) and its demo page (`/widget/`). */
@Module({ controllers: [WidgetController], providers: [WidgetAssets] })
export class WidgetModule implements OnModuleInit {
  constructor(
    private readonly adapter: HttpAdapterHost,
    private readonly assets: WidgetAssets,
  ) {}

  async onModuleInit(): Promise<void> {
    // The CLI boots the same modules without an HTTP server: nothing to serve there.
    if (!this.adapter.httpAdapter) {
      return;
    }
    // Nest strips a controller path's trailing slash, so `/widget/`, the demo's address in
    // the docs, is added on Fastify itself (before it is ready). Public like `/widget`.
    const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>();
    fastify.get('/widget/', (request, reply) =>
      sendDemoPage(reply, (request.query as { topic?: unknown }).topic),
    );
    await this.assets.load();
  }
}
