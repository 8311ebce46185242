import { connect } from 'node:net';

import { DomainError } from '@app/common';
import Fastify, { type FastifyInstance } from 'fastify';

import { registerBodyDeadline } from './body-deadline';

const TIMEOUT_MS = 300;

/** Sends the head and `sent` in one write on a raw socket; the whole answer, once it closes. */
async function rawPost(port: number, declared: number, sent: string) {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  const closed = new Promise((resolve) => socket.once('close', resolve));
  const head =
    'POST /echo HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n' +
    `content-length: ${declared}\r\nconnection: close\r\n\r\n`;
  socket.write(head + sent);
  await closed;
  return answer;
}

describe('registerBodyDeadline', () => {
  let sut: FastifyInstance;
  let port: number;
  /** Per request: whether the parser got the raw request itself (no guard stream). */
  let unwrapped: boolean[];

  beforeEach(async () => {
    unwrapped = [];
    sut = Fastify();
    registerBodyDeadline(sut, TIMEOUT_MS);
    sut.addHook('preParsing', (request, _reply, payload, done) => {
      unwrapped.push(payload === request.raw);
      done(null, payload);
    });
    sut.setErrorHandler((error, _request, reply) =>
      reply
        .status(error instanceof DomainError ? error.httpStatus : 500)
        .send({ error: error instanceof DomainError ? error.code : 'internal' }),
    );
    sut.post('/echo', (request) => request.body);
    await sut.listen({ port: 0, host: '127.0.0.1' });
    port = (sut.server.address() as { port: number }).port;
  });

  afterEach(() => sut.close());

  it('passes a body that came whole with its headers straight to the parser (no guard stream)', async () => {
    const body = JSON.stringify({ transcript: 'can you check my order number' });
    const answer = await rawPost(port, Buffer.byteLength(body), body);
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toContain(body);
    expect(unwrapped).toEqual([true]);
  });

  it('still answers a body that stops short 408 body_timeout and closes the connection', async () => {
    const body = JSON.stringify({ transcript: 'x'.repeat(200) });
    const answer = await rawPost(port, body.length, body.slice(0, 10));
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain('body_timeout');
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(unwrapped).toEqual([false]);
  });

  it('guards a body that declares more than arrived (hostile content-length)', async () => {
    const body = JSON.stringify({ transcript: 'short' });
    const answer = await rawPost(port, body.length + 1_000_000, body);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(unwrapped).toEqual([false]);
  });
});
