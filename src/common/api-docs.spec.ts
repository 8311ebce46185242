import { Controller, HttpCode, Post } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Test } from '@nestjs/testing';

import { ApiSseResponse } from './api-docs';

const EVENTS = [
  { type: 'object', properties: { type: { type: 'string', enum: ['chunk'] } } },
  { type: 'object', properties: { type: { type: 'string', enum: ['done'] } } },
];

@Controller('stream')
class StreamController {
  @Post()
  @HttpCode(200)
  @ApiSseResponse('One frame per event.', EVENTS)
  stream(): void {}
}

describe('ApiSseResponse', () => {
  it('documents a text/event-stream 200 whose frames are one of the events', async () => {
    const moduleRef = await Test.createTestingModule({ controllers: [StreamController] }).compile();
    const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter());
    try {
      const sut = SwaggerModule.createDocument(app, new DocumentBuilder().build());
      const responses = sut.paths['/stream'].post?.responses ?? {};
      expect(Object.keys(responses)).toEqual(['200']);
      expect(responses['200']).toEqual({
        description: 'One frame per event.',
        content: { 'text/event-stream': { schema: { oneOf: EVENTS } } },
      });
    } finally {
      await app.close();
    }
  });
});
