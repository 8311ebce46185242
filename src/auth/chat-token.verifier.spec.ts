import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';

import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';

import { type AppConfig, type ChatAuthConfig } from '../config/app-config';
import { ChatIdentityGuard } from './chat-identity.guard';
import { ChatTokenVerifier } from './chat-token.verifier';
import { type Jose, loadJose } from './jose';

const SECRET = 'an-hs256-secret-of-at-least-32-chars!';
type KeyPair = Awaited<ReturnType<Jose['generateKeyPair']>>;
const configWith = (chatAuth: ChatAuthConfig) => ({ security: { chatAuth } }) as AppConfig;

async function sign(
  jose: Jose,
  claims: Record<string, unknown>,
  key: Parameters<Jose['SignJWT']['prototype']['sign']>[0],
  header: { alg: string; kid?: string } = { alg: 'HS256' },
  expiresIn: string | number = '5m',
): Promise<string> {
  const jwt = new jose.SignJWT(claims).setProtectedHeader(header).setIssuedAt();
  if (expiresIn !== 0) {
    jwt.setExpirationTime(expiresIn);
  }
  return jwt.sign(key);
}

describe('ChatTokenVerifier', () => {
  let jose: Jose;
  const secret = new TextEncoder().encode(SECRET);

  beforeAll(async () => {
    jose = await loadJose();
  });

  describe('HS256 secret', () => {
    const sut = new ChatTokenVerifier(
      configWith({ mode: 'jwt', secret: SECRET, issuer: 'r42-idp', audience: ['r42-app'] }),
    );
    const claims = { sub: 'emp_1', iss: 'r42-idp', aud: 'r42-app' };

    it('returns the subject of a valid token', async () => {
      await expect(sut.verify(await sign(jose, claims, secret))).resolves.toEqual({
        sub: 'emp_1',
      });
    });

    it.each([
      [
        'forged (another secret)',
        () => sign(jose, claims, new TextEncoder().encode('x'.repeat(40))),
      ],
      ['another algorithm', () => sign(jose, claims, secret, { alg: 'HS512' })],
      ['no exp', () => sign(jose, claims, secret, { alg: 'HS256' }, 0)],
      ['no sub', () => sign(jose, { iss: 'r42-idp', aud: 'r42-app' }, secret)],
      ['wrong issuer', () => sign(jose, { ...claims, iss: 'evil' }, secret)],
      ['wrong audience', () => sign(jose, { ...claims, aud: 'other-app' }, secret)],
      [
        'unsigned (alg none)',
        () => Promise.resolve(new jose.UnsecuredJWT(claims).setExpirationTime('5m').encode()),
      ],
      ['garbage', () => Promise.resolve('not.a.jwt')],
    ])('rejects a token that is %s as invalid_token (401)', async (_what, make) => {
      await expect(sut.verify(await make())).rejects.toMatchObject({
        code: 'invalid_token',
        httpStatus: 401,
      });
    });

    it('tells an expired token apart (token_expired, 401), past the clock tolerance', async () => {
      const token = await sign(
        jose,
        claims,
        secret,
        { alg: 'HS256' },
        Math.floor(Date.now() / 1000) - 60,
      );
      await expect(sut.verify(token)).rejects.toMatchObject({
        code: 'token_expired',
        httpStatus: 401,
      });
    });
  });

  describe('JWKS URL', () => {
    let server: Server;
    let url: string;
    let up = true;
    let idpKey: KeyPair['privateKey'];
    let otherKey: KeyPair['privateKey'];
    let publicJwk: Record<string, unknown>;

    beforeAll(async () => {
      const pair = await jose.generateKeyPair('RS256', { extractable: true });
      idpKey = pair.privateKey;
      otherKey = (await jose.generateKeyPair('RS256')).privateKey;
      publicJwk = {
        ...(await jose.exportJWK(pair.publicKey)),
        kid: 'k1',
        alg: 'RS256',
        use: 'sig',
      };
      server = createServer((_req, res) => {
        if (!up) {
          res.writeHead(500).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ keys: [publicJwk] }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    it('verifies a token signed by a key of the set', async () => {
      const sut = new ChatTokenVerifier(configWith({ mode: 'jwt', jwksUrl: url }));
      const token = await sign(jose, { sub: 'emp_2' }, idpKey, { alg: 'RS256', kid: 'k1' });
      await expect(sut.verify(token)).resolves.toEqual({ sub: 'emp_2' });
    });

    it('rejects a key outside the set, and HMAC tokens (no algorithm confusion)', async () => {
      const sut = new ChatTokenVerifier(configWith({ mode: 'jwt', jwksUrl: url }));
      const foreign = await sign(jose, { sub: 'emp_2' }, otherKey, { alg: 'RS256', kid: 'k1' });
      const hmac = await sign(
        jose,
        { sub: 'emp_2' },
        new TextEncoder().encode(JSON.stringify(publicJwk)),
      );
      for (const token of [foreign, hmac]) {
        await expect(sut.verify(token)).rejects.toMatchObject({ code: 'invalid_token' });
      }
    });

    it('answers 503 when the identity provider cannot serve its keys', async () => {
      up = false;
      try {
        const sut = new ChatTokenVerifier(configWith({ mode: 'jwt', jwksUrl: url }));
        const token = await sign(jose, { sub: 'emp_2' }, idpKey, { alg: 'RS256', kid: 'k1' });
        await expect(sut.verify(token)).rejects.toMatchObject({
          code: 'identity_provider_unavailable',
          httpStatus: 503,
        });
      } finally {
        up = true;
      }
    });
  });
});

describe('ChatIdentityGuard', () => {
  const contextFor = (headers: Record<string, string>, body: unknown) => {
    const reply = { header: jest.fn() };
    reply.header.mockReturnValue(reply);
    // Nest's own context over (request, reply), as an HTTP guard receives it.
    const context = new ExecutionContextHost([{ headers, body }, reply]);
    return { context, reply };
  };

  it('lets everything through with CHAT_AUTH=none (the R42 spec)', async () => {
    const sut = new ChatIdentityGuard(new ChatTokenVerifier(configWith({ mode: 'none' })));
    await expect(sut.canActivate(contextFor({}, { userId: 'anyone' }).context)).resolves.toBe(true);
  });

  describe('CHAT_AUTH=jwt', () => {
    const sut = new ChatIdentityGuard(
      new ChatTokenVerifier(configWith({ mode: 'jwt', secret: SECRET })),
    );
    let token: string;
    beforeAll(async () => {
      token = await sign(await loadJose(), { sub: 'emp_1' }, new TextEncoder().encode(SECRET));
    });

    it('accepts the token of the user the body names', async () => {
      const { context } = contextFor({ authorization: `Bearer ${token}` }, { userId: 'emp_1' });
      await expect(sut.canActivate(context)).resolves.toBe(true);
    });

    it('refuses another user’s userId (401 token_user_mismatch) with a challenge', async () => {
      const { context, reply } = contextFor(
        { authorization: `Bearer ${token}` },
        { userId: 'emp_2' },
      );
      await expect(sut.canActivate(context)).rejects.toMatchObject({
        code: 'token_user_mismatch',
        httpStatus: 401,
      });
      expect(reply.header).toHaveBeenCalledWith(
        'www-authenticate',
        expect.stringMatching(/^Bearer /),
      );
    });

    it('refuses a request without a Bearer token (401 missing_token)', async () => {
      for (const headers of [{}, { authorization: `Basic ${token}` }] as Array<
        Record<string, string>
      >) {
        await expect(
          sut.canActivate(contextFor(headers, { userId: 'emp_1' }).context),
        ).rejects.toMatchObject({ code: 'missing_token', httpStatus: 401 });
      }
    });
  });
});
