import { InvalidEnvironmentError, loadConfig } from '../config/load-config';

describe('TELEMETRY_HASH_KEY', () => {
  it('is the key of the contact-id hashes when set', () => {
    const key = 'a'.repeat(64);
    expect(loadConfig({ TELEMETRY_HASH_KEY: key }).telemetry.hashKey).toBe(key);
    expect(loadConfig({}).telemetry.hashKey).toBeUndefined();
  });

  it('refuses a key too short to keep phone numbers from being guessed back', () => {
    expect(() => loadConfig({ TELEMETRY_HASH_KEY: 'secret' })).toThrow(InvalidEnvironmentError);
    expect(() => loadConfig({ TELEMETRY_HASH_KEY: 'secret' })).toThrow(/TELEMETRY_HASH_KEY/);
  });
});
