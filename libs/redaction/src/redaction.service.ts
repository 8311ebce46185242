import { Inject, Injectable } from '@nestjs/common';

import { REDACTION_OPTIONS, type RedactionModuleOptions } from './redaction.module-definition';
import { Redactor } from './redactor';

/**
 * The {@link Redactor} as a Nest provider, configured once from the module options. It
 * adds nothing to the redactor: injecting it keeps callers free of construction details
 * while tests and scripts can still use a plain `new Redactor()`.
 */
@Injectable()
export class RedactionService extends Redactor {
  constructor(@Inject(REDACTION_OPTIONS) options: RedactionModuleOptions) {
    super(options);
  }
}
