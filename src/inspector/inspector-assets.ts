import { Injectable } from '@nestjs/common';

import { ClientAssets } from '../common/client-assets';
import { INSPECTOR_CLIENT } from './inspector-client';

/** The built inspector script, held in memory (see {@link ClientAssets}). */
@Injectable()
export class InspectorAssets extends ClientAssets {
  constructor() {
    super(INSPECTOR_CLIENT, 'inspector', 'inspector_unavailable');
  }
}
