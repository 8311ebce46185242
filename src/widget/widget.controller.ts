import { Controller, Get, Headers, Query, Res } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';

import { Public } from '../auth/public.decorator';
import { sendPage, sendScript, sendStylesheet } from '../common/client-assets';
import { DEMO_CSP, DEMO_CSS, demoPage } from './demo-page';
import { WidgetAssets } from './widget-assets.service';

/** Sends the demo page under its strict CSP; `topic` is the `?topic=` a pill navigated to. */
export function sendDemoPage(reply: FastifyReply, topic: unknown): FastifyReply {
  return sendPage(
    reply,
    demoPage(typeof topic === 'string' ? topic.slice(0, 200) : undefined),
    DEMO_CSP,
  );
}

/** The `<r42-chat>` web component and its demo page: public, like the chat it talks to. */
@ApiTags('widget')
@Public()
@Controller('widget')
export class WidgetController {
  constructor(private readonly assets: WidgetAssets) {}

  @Get('r42-chat.js')
  @ApiOperation({ summary: 'The <r42-chat> web component: one minified ES module' })
  @ApiProduces('text/javascript')
  @ApiOkResponse({ description: 'The bundle; its SRI hash is in the README.' })
  @ApiServiceUnavailableResponse({ description: '`widget_unavailable`: not built' })
  script(
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() reply: FastifyReply,
  ): FastifyReply {
    // Module scripts are fetched in CORS mode: an app on another origin needs these to load
    // it at all (and to check `integrity`). Public code, no credentials.
    return sendScript(reply, this.assets.get(), ifNoneMatch, {
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
    });
  }

  @Get()
  @ApiOperation({ summary: 'Demo: a mock employee-app screen with the R42 chat widget' })
  @ApiProduces('text/html')
  @ApiQuery({ name: 'topic', required: false, description: 'A topic a citation pill opened' })
  @ApiOkResponse({ description: 'The demo page, under a strict Content-Security-Policy.' })
  demo(@Query('topic') topic: unknown, @Res() reply: FastifyReply): FastifyReply {
    return sendDemoPage(reply, topic);
  }

  @Get('demo.css')
  @ApiOperation({ summary: 'Demo page styles' })
  @ApiProduces('text/css')
  @ApiOkResponse({ description: 'The stylesheet.' })
  css(@Res() reply: FastifyReply): FastifyReply {
    return sendStylesheet(reply, DEMO_CSS);
  }
}
