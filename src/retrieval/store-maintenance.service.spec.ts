import { type VectorStore } from '@app/vector';
import { Logger } from '@nestjs/common';

import { type StoreBootstrap } from './store-bootstrap.service';
import { StoreMaintenance } from './store-maintenance.service';

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
});
