import {
  type ContactLookup,
  type PodiumContacts,
  type PodiumStatus,
} from '../interfaces/podium-contacts.interface';

/**
 * No live CRM (`PODIUM_PROVIDER=none`): every lookup answers `not_configured` at once, so a
 * bundle carries history only and says why, and nothing misses a deadline. Nothing is
 * cached, so nothing needs invalidating; the surface is never degraded, only absent. No
 * `list`: there are no contacts to pick from.
 */
export class NonePodiumContacts implements PodiumContacts {
  getContact(_contactUid: string, signal?: AbortSignal): Promise<ContactLookup> {
    // Same contract as the other providers: a caller that already gave up gets a rejection.
    if (signal?.aborted) {
      return Promise.reject(signal.reason as Error);
    }
    return Promise.resolve({ status: 'not_configured' });
  }

  invalidate(): Promise<void> {
    return Promise.resolve();
  }

  isHealthy(): Promise<boolean> {
    return Promise.resolve(true);
  }

  status(): Promise<PodiumStatus> {
    return Promise.resolve({ status: 'not_configured' });
  }
}
