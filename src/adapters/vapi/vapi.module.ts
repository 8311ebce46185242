import { Module } from '@nestjs/common';

import { ContextModule } from '../../context/context.module';
import { VapiController } from './vapi.controller';
import { VapiAuthGuard } from './vapi-auth.guard';

/** `POST /adapters/vapi/knowledge-base`: Vapi's custom knowledge base. */
@Module({
  imports: [ContextModule],
  controllers: [VapiController],
  providers: [VapiAuthGuard],
})
export class VapiModule {}
