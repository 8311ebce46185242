import { DomainError } from '@app/common';
import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { type FastifyReply, type FastifyRequest } from 'fastify';

import { AuthenticationError } from './auth.errors';
import { ChatTokenVerifier } from './chat-token.verifier';

/** NODE_ENV=production and CHAT_AUTH unset (403): chat stays shut until a mode is chosen. */
export class ChatClosedError extends DomainError {
  constructor() {
    super(
      'chat_auth_required',
      'POST /chat is closed: NODE_ENV=production and CHAT_AUTH is unset. Set CHAT_AUTH=jwt, or CHAT_AUTH=none to open it on purpose.',
      403,
    );
  }
}

/**
 * `CHAT_AUTH=jwt` for `POST /chat`: the request must carry `Authorization: Bearer <jwt>`,
 * the token must verify, and the body's `userId` must equal its `sub`, so one employee
 * cannot ask as another. With `CHAT_AUTH=none` (the default) it lets everything through.
 * Apply with `@UseGuards(ChatIdentityGuard)` next to `@Public()` on the chat controller.
 */
@Injectable()
export class ChatIdentityGuard implements CanActivate {
  constructor(private readonly verifier: ChatTokenVerifier) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.verifier.closed) {
      throw new ChatClosedError();
    }
    if (!this.verifier.enabled) {
      return true;
    }
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    try {
      const token = bearerToken(request.headers.authorization);
      const { sub } = await this.verifier.verify(token);
      const userId = (request.body as { userId?: unknown } | undefined)?.userId;
      // A missing or non-string userId is the body validation's 400, not an identity matter.
      if (typeof userId === 'string' && userId !== sub) {
        throw new AuthenticationError(
          'token_user_mismatch',
          'userId does not match the subject of the token.',
        );
      }
      return true;
    } catch (error) {
      if (error instanceof AuthenticationError) {
        void http
          .getResponse<FastifyReply>()
          .header('www-authenticate', `Bearer realm="chat", error="invalid_token"`);
      }
      throw error;
    }
  }
}

function bearerToken(header: string | undefined): string {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match) {
    throw new AuthenticationError(
      'missing_token',
      'CHAT_AUTH=jwt: send the employee’s token as `Authorization: Bearer <jwt>`.',
    );
  }
  return match[1];
}
