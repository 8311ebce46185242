import { DependencyError } from '@app/common';
import { Inject, Injectable } from '@nestjs/common';

import { APP_CONFIG, type AppConfig, type ChatAuthConfig } from '../config/app-config';
import { AuthenticationError } from './auth.errors';
import { type Jose, loadJose } from './jose';

/** Asymmetric algorithms a JWKS may sign with; `none` and HMAC are never accepted from it. */
const JWKS_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];
/** Clock skew tolerated on `exp`/`nbf` between the identity provider and us. */
const CLOCK_TOLERANCE_S = 5;

type KeySource = Uint8Array | ReturnType<Jose['createRemoteJWKSet']>;

/**
 * Verifies the employee app's JWT for `POST /chat` (CHAT_AUTH=jwt): an HS256 shared secret,
 * or the identity provider's JWKS (fetched, cached and re-fetched on an unknown `kid` by
 * jose). Requires `exp` and `sub`; checks `iss`/`aud` when configured.
 */
@Injectable()
export class ChatTokenVerifier {
  private readonly auth: ChatAuthConfig;
  private key?: Promise<KeySource>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.auth = config.security.chatAuth;
  }

  /** False with CHAT_AUTH=none: the R42 spec's trust in `userId`. */
  get enabled(): boolean {
    return this.auth.mode === 'jwt';
  }

  /** NODE_ENV=production with CHAT_AUTH unset: no chat until an operator picks a mode. */
  get closed(): boolean {
    return this.auth.mode === 'closed';
  }

  /** The verified subject, or a 401 (`invalid_token`, `token_expired`); 503 if the JWKS is down. */
  async verify(token: string): Promise<{ sub: string }> {
    if (this.auth.mode !== 'jwt') {
      throw new Error('ChatTokenVerifier.verify called with CHAT_AUTH=none');
    }
    const jose = await loadJose();
    this.key ??= this.keySource(jose, this.auth);
    const key = await this.key;
    try {
      const { payload } = await jose.jwtVerify(token, key as Uint8Array, {
        algorithms: this.auth.secret ? ['HS256'] : JWKS_ALGORITHMS,
        issuer: this.auth.issuer,
        audience: this.auth.audience,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['exp', 'sub'],
      });
      return { sub: payload.sub as string };
    } catch (error) {
      throw toAuthError(jose, error);
    }
  }

  private keySource(
    jose: Jose,
    auth: Extract<ChatAuthConfig, { mode: 'jwt' }>,
  ): Promise<KeySource> {
    return Promise.resolve(
      auth.secret
        ? new TextEncoder().encode(auth.secret)
        : jose.createRemoteJWKSet(new URL(auth.jwksUrl as string), {
            timeoutDuration: 2000,
            cooldownDuration: 30_000,
            cacheMaxAge: 10 * 60_000,
          }),
    );
  }
}

/** jose's errors as ours; messages never quote the token or its claims. */
function toAuthError(jose: Jose, error: unknown): Error {
  const { errors } = jose;
  if (error instanceof errors.JWTExpired) {
    return new AuthenticationError('token_expired', 'The token has expired.');
  }
  // Fetching the JWKS failed (network, timeout, non-200, not a key set): our dependency is
  // down, the token may be fine. jose raises a bare JOSEError only for those HTTP failures.
  const fetchFailed =
    !(error instanceof errors.JOSEError) ||
    error instanceof errors.JWKSTimeout ||
    error instanceof errors.JWKSInvalid ||
    error.code === errors.JOSEError.code;
  if (fetchFailed) {
    return new DependencyError(
      'identity_provider_unavailable',
      'The identity provider’s keys (CHAT_JWKS_URL) could not be fetched.',
    );
  }
  return new AuthenticationError('invalid_token', 'The token is not valid.');
}
