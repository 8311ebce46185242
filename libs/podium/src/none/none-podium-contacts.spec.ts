import { type PodiumContacts } from '../interfaces/podium-contacts.interface';
import { NonePodiumContacts } from './none-podium-contacts';

describe('NonePodiumContacts', () => {
  const sut: PodiumContacts = new NonePodiumContacts();

  it('answers every identifier not_configured, whatever it holds', async () => {
    for (const id of ['ctc_1', '', '+15550100', 'x'.repeat(10_000), '../../etc/passwd']) {
      await expect(sut.getContact(id)).resolves.toEqual({ status: 'not_configured' });
    }
  });

  it('rejects a lookup whose caller already gave up, like the other providers', async () => {
    const controller = new AbortController();
    controller.abort(new Error('deadline'));
    await expect(sut.getContact('ctc_1', controller.signal)).rejects.toThrow('deadline');
  });

  it('has nothing to invalidate and is never degraded, only not configured', async () => {
    await expect(sut.invalidate('ctc_1')).resolves.toBeUndefined();
    await expect(sut.status()).resolves.toEqual({ status: 'not_configured' });
    await expect(sut.isHealthy()).resolves.toBe(true);
    expect(sut.list).toBeUndefined();
  });
});
