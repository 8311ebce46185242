import { DomainError } from '@app/common';
import { RedactionOffloadService } from '@app/redaction';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Injectable, Logger } from '@nestjs/common';
import { z } from 'zod';

import { type LocationScope } from '../../auth/principal';
import { KbRetrievalService } from '../../chat/kb-retrieval.service';
import { UID_PATTERN } from '../../common/api-docs';
import { ContextService } from '../../context/context.service';
import { MAX_REDACT_TEXT_LENGTH } from '../../redact/redact.dto';
import { SearchService } from '../../retrieval/search.service';
import { MCP_CALL_CONCURRENCY } from './mcp-bounds';
import { Semaphore } from './semaphore';

/** The same limits as the HTTP DTOs (`@IsUid`, `@IsText`), as JSON Schema via zod. */
const uid = (description: string) =>
  z.string().min(1).max(128).regex(new RegExp(UID_PATTERN)).describe(description);
/** NUL is refused because Postgres text rejects it. */
const text = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/\S/)
    // eslint-disable-next-line no-control-regex -- matching NUL is the point
    .regex(/^[^\u0000]*$/);
const int = (min: number, max: number, description: string) =>
  z.number().int().min(min).max(max).optional().describe(description);

/** What `context_fetch` and `context_explain` take: `POST /context`'s fields. */
const CONTEXT_INPUT = {
  transcript: text(8000).describe('The live transcript chunk.'),
  contact_uid: uid('The caller.').optional(),
  call_id: uid('Chunks of one call share a sliding window of words.').optional(),
  location_uid: uid('Restrict history to this location.').optional(),
  timeout_ms: int(50, 5000, 'Hard deadline in ms (default 800).'),
  max_tokens: int(1, 32000, 'Excerpt token budget.'),
};

/** Same code as `POST /chat`; the tool's message also says how to search without a user. */
const isUserNotFound = (error: unknown) =>
  error instanceof DomainError && error.code === 'user_not_found';

const json = (value: unknown): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
});

/**
 * The bridge as MCP tools, one `McpServer` per request (the transport is stateless), bound
 * to the caller's location scope. Each tool is a thin call into the service behind the
 * matching HTTP route, so deadlines, tenant scoping, redaction and metrics are the same.
 */
@Injectable()
export class McpToolsService {
  private readonly logger = new Logger(McpToolsService.name);

  constructor(
    private readonly context: ContextService,
    private readonly search: SearchService,
    private readonly redaction: RedactionOffloadService,
    private readonly kb: KbRetrievalService,
  ) {}

  /**
   * `arrivedAt`: when the HTTP request arrived; `context_fetch`'s deadline counts from it.
   * `caller`: as the rate limiter counts it (a call_id's call is this caller's own).
   */
  createServer(scope: LocationScope, arrivedAt?: number, caller?: string): McpServer {
    const server = new McpServer({ name: 'context-bridge', version: '1' });
    // One request's batch shares this: its calls run MCP_CALL_CONCURRENCY at a time.
    const turns = new Semaphore(MCP_CALL_CONCURRENCY);
    const run = (work: () => Promise<unknown>) => turns.run(() => this.run(work));
    server.registerTool(
      'context_fetch',
      {
        title: 'Context bundle',
        description:
          'Live CRM fields of the contact plus redacted, reranked excerpts of its past conversations that match the transcript, inside a hard deadline. A stage that misses the deadline is skipped (meta.partial).',
        inputSchema: CONTEXT_INPUT,
      },
      (args) => run(() => this.context.build(args, scope, arrivedAt, caller)),
    );
    server.registerTool(
      'context_explain',
      {
        title: 'Context bundle, explained',
        description:
          'context_fetch plus `explain`: every candidate of the pool with its dense rank and cosine, BM25 rank and score, each fusion component, the final score and why it was kept or dropped (rank, budget, merged, below threshold); redactions per excerpt; stage timings. Same deadline, tenant rules and redaction.',
        inputSchema: {
          ...CONTEXT_INPUT,
          pool_k: int(1, 100, 'Candidates per list before rerank.'),
          final_k: int(1, 50, 'Hard cap on excerpts.'),
        },
      },
      (args) => run(() => this.context.build({ ...args, explain: true }, scope, arrivedAt, caller)),
    );
    server.registerTool(
      'search_history',
      {
        title: 'Search conversation history',
        description: 'Nearest past-conversation windows (PII redacted) with cosine scores.',
        inputSchema: {
          query: text(8000).describe('What to look for, in plain words.'),
          contact_uid: uid('Only this contact’s history.').optional(),
          location_uid: uid('Only this location’s history.').optional(),
          top_k: int(1, 100, 'How many hits (default 5).'),
        },
      },
      (args, extra) =>
        run(() => this.search.search({ ...args, top_k: args.top_k ?? 5 }, scope, extra.signal)),
    );
    server.registerTool(
      'redact',
      {
        title: 'Redact PII',
        description: 'Masks phone numbers, emails, cards, addresses… as [REDACTED:TYPE].',
        inputSchema: { text: z.string().max(MAX_REDACT_TEXT_LENGTH).describe('The text.') },
      },
      (args) => run(() => this.redaction.redact(args.text)),
    );
    server.registerTool(
      'kb_search',
      {
        title: 'Search the knowledge base',
        description:
          'R42 retrieval without generation: the best knowledge-base passages and topic summaries above the relevance threshold.',
        inputSchema: {
          query: text(2000).describe('The question.'),
          userId: uid(
            'An employee: boosts their current week’s theme. An id the curriculum does not know is a user_not_found error; omit it to search without the boost.',
          ).optional(),
        },
      },
      (args, extra) =>
        run(async () => {
          const found = await this.kb
            .retrieve(args.query, args.userId, extra.signal)
            .catch((error: unknown) => {
              throw isUserNotFound(error)
                ? new DomainError(
                    'user_not_found',
                    'No employee with this userId. Omit userId to search without the current-week boost.',
                    404,
                  )
                : error;
            });
          return {
            threshold: found.threshold,
            current_theme_id: found.currentThemeId,
            hits: found.merged.map((h) => ({
              collection: h.collection,
              id: h.id,
              topic_id: h.topicId,
              title: h.title,
              score: Number(h.score.toFixed(6)),
              text: h.text,
            })),
          };
        }),
    );
    return server;
  }

  /** Domain errors become MCP tool errors carrying our stable code, not protocol errors. */
  private async run(work: () => Promise<unknown>): Promise<CallToolResult> {
    try {
      return json(await work());
    } catch (error) {
      if (error instanceof DomainError) {
        return { ...json({ error: error.code, message: error.message }), isError: true };
      }
      this.logger.error(`MCP tool failed: ${(error as Error).name}`);
      return {
        ...json({ error: 'internal_error', message: 'The tool failed unexpectedly.' }),
        isError: true,
      };
    }
  }
}
