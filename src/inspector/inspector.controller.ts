import { Controller, Get, Headers, Res } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';

import { Public } from '../auth/public.decorator';
import { sendPage, sendScript, sendStylesheet } from '../common/client-assets';
import { InspectorAssets } from './inspector-assets';
import { INSPECTOR_CSP, INSPECTOR_CSS, INSPECTOR_HTML } from './inspector-page';

/**
 * `GET /inspect`: the explain mode in a browser. The page, its script and styles are code,
 * not data, so they load without a key (a browser cannot send one on navigation); every
 * request the page makes (`/contacts`, `/context`) goes to the key-protected API with the
 * key typed into it, so in production it shows nothing without one.
 */
@ApiTags('inspector')
@Public()
@Controller('inspect')
export class InspectorController {
  constructor(private readonly assets: InspectorAssets) {}

  @Get()
  @ApiOperation({ summary: 'Inspector page: a bundle, its stage waterfall and scored pool' })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'A static page under a strict Content-Security-Policy.' })
  page(@Res() reply: FastifyReply): FastifyReply {
    return sendPage(reply, INSPECTOR_HTML, INSPECTOR_CSP, { 'referrer-policy': 'no-referrer' });
  }

  @Get('inspector.js')
  @ApiOperation({ summary: 'The inspector page’s script: one minified ES module' })
  @ApiProduces('text/javascript')
  @ApiOkResponse({ description: 'The bundle.' })
  @ApiServiceUnavailableResponse({ description: '`inspector_unavailable`: not built' })
  script(
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() reply: FastifyReply,
  ): FastifyReply {
    return sendScript(reply, this.assets.get(), ifNoneMatch);
  }

  @Get('inspector.css')
  @ApiOperation({ summary: 'Inspector page styles' })
  @ApiProduces('text/css')
  @ApiOkResponse({ description: 'The stylesheet.' })
  css(@Res() reply: FastifyReply): FastifyReply {
    return sendStylesheet(reply, INSPECTOR_CSS, { 'x-content-type-options': 'nosniff' });
  }
}
