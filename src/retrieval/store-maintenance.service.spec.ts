import { type VectorStore } from '@app/vector';
import { Logger } from '@nestjs/common';

import { type StoreBootstrap } from './store-bootstrap.service';
import { DUE_POLL_MS, StoreMaintenance } from './store-maintenance.service';

describe('StoreMaintenance', () => {
  afterEach(() => jest.restoreAllMocks());

  it('logs a failed run by the error’s class and code, never its message (it quotes ids)', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const duplicate = Object.assign(
      new Error(
        'duplicate key value violates unique constraint: (contact_uid)=(jane.doe@example.com)',
      ),
      { code: '23505' },
    );
    const store = { maintain: () => Promise.reject(duplicate) } as unknown as VectorStore;
    const sut = new StoreMaintenance(store, { ready: true } as StoreBootstrap);

    await sut.runOnce();

    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toBe('store maintenance failed: Error (23505)');
  });

  describe('when an ingest ends (issue 42: a contact past the threshold waited up to 10 min)', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    const started = (due: () => Promise<boolean>) => {
      const maintain = jest.fn(() => Promise.resolve({ created: [], dropped: [] }));
      const store = { maintain, maintenanceDue: jest.fn(due) } as unknown as VectorStore;
      const sut = new StoreMaintenance(store, { ready: true } as StoreBootstrap);
      sut.onApplicationBootstrap();
      return { sut, maintain, store };
    };

    it('runs within one poll of the store saying upkeep is due, long before the first tick', async () => {
      jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
      const { sut, maintain } = started(() => Promise.resolve(true));

      await jest.advanceTimersByTimeAsync(DUE_POLL_MS);

      expect(maintain).toHaveBeenCalledTimes(1);
      await sut.onModuleDestroy();
    });

    it('runs nothing while the store says nothing is due', async () => {
      const { sut, maintain, store } = started(() => Promise.resolve(false));

      // Two polls: the boot's first run (15 s) comes after them.
      await jest.advanceTimersByTimeAsync(2 * DUE_POLL_MS);

      expect(store.maintenanceDue).toHaveBeenCalledTimes(2);
      expect(maintain).not.toHaveBeenCalled();
      await sut.onModuleDestroy();
    });

    it('logs a failed check and polls again', async () => {
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      const { sut, store } = started(() => Promise.reject(new Error('connection lost')));

      await jest.advanceTimersByTimeAsync(2 * DUE_POLL_MS);

      expect(store.maintenanceDue).toHaveBeenCalledTimes(2);
      expect(warn).toHaveBeenCalledWith('store maintenance check failed: Error');
      await sut.onModuleDestroy();
    });
  });
});
