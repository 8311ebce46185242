import { Injectable, Logger, ServiceUnavailableException } from '@nestjs/common';

import { loadWidget, type WidgetBundle } from './widget-build';

/**
 * Holds the built `<r42-chat>` bundle in memory. It is read (or, on a checkout that has not
 * run `npm run build`, built) once when the HTTP server starts, so serving it is a buffer write.
 */
@Injectable()
export class WidgetAssets {
  private readonly logger = new Logger(WidgetAssets.name);
  private bundle: (WidgetBundle & { etag: string }) | undefined;

  async load(): Promise<void> {
    try {
      const bundle = await loadWidget();
      // A strong validator from the content hash: a new build is a new ETag.
      this.bundle = { ...bundle, etag: `"${bundle.integrity.slice(7, 39)}"` };
    } catch (error) {
      // The API still serves; only the widget is missing (e.g. an image built without it).
      this.logger.error(`The chat widget bundle is unavailable: ${String(error)}`);
    }
  }

  get(): WidgetBundle & { etag: string } {
    if (!this.bundle) {
      throw new ServiceUnavailableException({
        error: 'widget_unavailable',
        message: 'The chat widget is not built on this server (run `npm run build`).',
      });
    }
    return this.bundle;
  }
}
