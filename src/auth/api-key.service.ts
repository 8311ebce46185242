import { type IncomingHttpHeaders } from 'node:http';

import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ApiKeyRing, type Identity } from './api-keys';
import { ApiKeysFile, type KeysFileOptions } from './api-keys-file';
import { AuthenticationError } from './auth.errors';
import { nextKeys } from './key-reload';

/** `WWW-Authenticate` for a 401 from a key-protected route (RFC 6750 §3). */
export const API_KEY_CHALLENGE = 'Bearer realm="context-bridge"';

/** A revoked key must stop working within a second, even where fs.watch says nothing. */
export const KEYS_FILE_FOLLOW: KeysFileOptions = {
  pollMs: 500,
  debounceMs: 50,
  watch: true,
  settleMs: 200,
};

/**
 * Resolves a request's credentials against the configured key hashes, once per request
 * (the rate limiter, the guard and the ingest admission hook all ask). In the server,
 * API_KEYS_FILE is followed (change or SIGHUP): a valid new version replaces the keys at
 * once; an invalid one is logged (problems only, never key material) and the keys in use
 * stay. A request keeps the identity it was first given.
 */
@Injectable()
export class ApiKeyService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ApiKeyService.name);
  private ring: ApiKeyRing;
  private current: AppConfig['security']['apiKeys'];
  private file?: ApiKeysFile;
  private readonly identities = new WeakMap<object, Identity>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.current = config.security.apiKeys;
    this.ring = new ApiKeyRing(this.current);
  }

  onApplicationBootstrap(): void {
    const source = this.config.security.apiKeysFile;
    // A CLI command never serves a request, and must leave SIGHUP to the terminal.
    if (!source || this.config.role === 'cli') {
      return;
    }
    this.file = new ApiKeysFile(source.path, KEYS_FILE_FOLLOW, (read) => {
      const next = nextKeys(this.current, source.fixedKeys, read, this.config.adapters);
      if ('problems' in next) {
        this.logger.error(
          `API_KEYS_FILE not applied, the keys in use stay: ${next.problems.join('; ')}`,
        );
        return;
      }
      if (next.changed) {
        this.current = next.keys;
        this.ring = new ApiKeyRing(next.keys);
        this.logger.log(`API keys reloaded from API_KEYS_FILE: ${next.summary}`);
      }
    });
    this.file.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.file?.stop();
  }

  /** The file follower (tests wait for its reads). */
  get keysFile(): ApiKeysFile | undefined {
    return this.file;
  }

  /** False without keys: the service runs open (refused at boot when NODE_ENV=production). */
  get enabled(): boolean {
    return this.ring.enabled;
  }

  identify(request: { headers: IncomingHttpHeaders }): Identity {
    let identity = this.identities.get(request);
    if (!identity) {
      identity = this.ring.identify(request.headers);
      this.identities.set(request, identity);
    }
    return identity;
  }

  /** The 401 a key-protected route answers for this identity; `undefined` lets it through. */
  rejection(identity: Identity): AuthenticationError | undefined {
    if (!this.enabled || identity.kind === 'key') {
      return undefined;
    }
    return identity.kind === 'missing'
      ? new AuthenticationError(
          'missing_api_key',
          'This endpoint needs an API key: send `Authorization: Bearer <key>` or `x-api-key: <key>`.',
        )
      : new AuthenticationError('invalid_api_key', 'The API key is not valid.');
  }
}
