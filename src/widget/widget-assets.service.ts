import { Injectable } from '@nestjs/common';

import { ClientAssets } from '../common/client-assets';
import { WIDGET_CLIENT } from './widget-build';

/** The built `<r42-chat>` bundle, held in memory (see {@link ClientAssets}). */
@Injectable()
export class WidgetAssets extends ClientAssets {
  constructor() {
    super(WIDGET_CLIENT, 'chat widget', 'widget_unavailable');
  }
}
