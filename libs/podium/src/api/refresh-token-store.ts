import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

import { type Database, PodiumCredentialEntity } from '@app/database';
import { Logger } from '@nestjs/common';

/**
 * Where the token manager keeps Podium's rotated refresh token, so a restart (or another
 * replica) starts from the newest one instead of the configured one Podium has already
 * retired. `seed` is the configured token: what is stored applies only to the chain that
 * descends from it, so configuring a new token (a reconnected app) always wins.
 */
export interface RefreshTokenStore {
  /** The newest stored token of `seed`'s chain; `undefined` when none. Throws when unreadable. */
  load(seed: string): Promise<string | undefined>;
  save(seed: string, token: string): Promise<void>;
}

const ROW = 'podium_refresh_token';
const FORMAT = 'v1';

/**
 * Reads PODIUM_TOKEN_ENCRYPTION_KEY: 32 bytes as 64 hex characters or base64. `undefined`
 * when it is not a 256-bit key.
 */
export function parseTokenEncryptionKey(value: string): Buffer | undefined {
  const s = value.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(s) ? Buffer.from(s, 'hex') : Buffer.from(s, 'base64');
  return key.length === 32 ? key : undefined;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The refresh token in the service's own database (`podium_credentials`), encrypted with
 * AES-256-GCM under a key from config: a database dump alone does not yield the token. The
 * row name and seed hash are authenticated data, so a ciphertext cannot be moved to another
 * row or chain. Nothing here logs a token.
 */
export class DatabaseRefreshTokenStore implements RefreshTokenStore {
  private readonly logger = new Logger('PodiumTokenStore');

  constructor(
    private readonly database: Database,
    private readonly key: Buffer,
  ) {}

  async load(seed: string): Promise<string | undefined> {
    if (!this.database.isOpen) {
      throw new Error('database not open yet');
    }
    const row = await this.credentials().findOneBy({ name: ROW });
    if (!row || row.seedSha256 !== sha256(seed)) {
      return undefined;
    }
    try {
      return this.decrypt(row.ciphertext, row.seedSha256);
    } catch {
      // A changed key or a tampered row: the configured token is all we can trust.
      this.logger.warn(
        'the stored Podium refresh token cannot be decrypted with PODIUM_TOKEN_ENCRYPTION_KEY; using the configured one',
      );
      return undefined;
    }
  }

  async save(seed: string, token: string): Promise<void> {
    const seedHash = sha256(seed);
    // One row, replaced whole: INSERT … ON CONFLICT (name) DO UPDATE.
    await this.credentials().upsert(
      {
        name: ROW,
        seedSha256: seedHash,
        ciphertext: this.encrypt(token, seedHash),
        updatedAt: new Date(),
      },
      ['name'],
    );
  }

  private credentials() {
    return this.database.dataSource.getRepository(PodiumCredentialEntity);
  }

  private encrypt(token: string, seedHash: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(`${ROW}:${seedHash}`));
    const data = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), data].map((part) => part.toString('base64'));
    return [FORMAT, ...parts].join(':');
  }

  private decrypt(stored: string, seedHash: string): string {
    const [format, iv, tag, data] = stored.split(':');
    if (format !== FORMAT || !iv || !tag || !data) {
      throw new Error('unknown format');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAAD(Buffer.from(`${ROW}:${seedHash}`));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString(
      'utf8',
    );
  }
}
