import { EventEmitter } from 'node:events';

import { waitUntilReady } from './redis-ready';

class FakeClient extends EventEmitter {
  status = 'connecting';
}

describe('waitUntilReady', () => {
  it('resolves true at once for a ready client', async () => {
    const sut = new FakeClient();
    sut.status = 'ready';
    await expect(waitUntilReady(sut, 1000)).resolves.toBe(true);
  });

  it('resolves true when the client becomes ready, and leaves no listener', async () => {
    const sut = new FakeClient();
    const waiting = waitUntilReady(sut, 5000);
    sut.status = 'ready';
    sut.emit('ready');
    await expect(waiting).resolves.toBe(true);
    expect(sut.listenerCount('ready')).toBe(0);
  });

  it('resolves false after the timeout, and removes its listener', async () => {
    const sut = new FakeClient();
    await expect(waitUntilReady(sut, 20)).resolves.toBe(false);
    expect(sut.listenerCount('ready')).toBe(0);
  });
});
