import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';

import { ChatClosedError, ChatIdentityGuard } from '../auth/chat-identity.guard';
import { ChatTokenVerifier } from '../auth/chat-token.verifier';
import { loadConfig } from './load-config';

const PRODUCTION = { NODE_ENV: 'production', API_KEYS: `svc:${'a'.repeat(64)}` };

describe('POST /chat identity in production', () => {
  it('is closed when CHAT_AUTH is unset: nobody may ask as any userId by default', () => {
    expect(loadConfig(PRODUCTION).security.chatAuth).toEqual({ mode: 'closed' });
  });

  it('is open only when said so, or for a try-out of the image', () => {
    expect(loadConfig({ ...PRODUCTION, CHAT_AUTH: 'none' }).security.chatAuth.mode).toBe('none');
    const tryOut = loadConfig({ ...PRODUCTION, ALLOW_DEMO_PROVIDERS: 'true' });
    expect(tryOut.security.chatAuth.mode).toBe('none');
    expect(loadConfig({ NODE_ENV: 'development' }).security.chatAuth.mode).toBe('none');
  });

  it('refuses every chat request while closed (403 chat_auth_required)', async () => {
    const sut = new ChatIdentityGuard(new ChatTokenVerifier(loadConfig(PRODUCTION)));
    const context = new ExecutionContextHost([{ headers: {}, body: { userId: 'emp_1' } }, {}]);
    await expect(sut.canActivate(context)).rejects.toBeInstanceOf(ChatClosedError);
    await expect(sut.canActivate(context)).rejects.toMatchObject({
      code: 'chat_auth_required',
      httpStatus: 403,
    });
  });
});
