import { readFileSync } from 'node:fs';

import { RedactionService } from '@app/redaction';
import { type INestApplicationContext } from '@nestjs/common';
import { type Command } from 'commander';

import { type ContextBundle } from '../context/context.dto';
import { ContextService } from '../context/context.service';
import { ContextPromptService } from '../context/context-prompt.service';
import { RelevanceService } from '../context/relevance.service';
import { SearchService } from '../retrieval/search.service';
import { withAppContext } from './cli-context';
import { callServer, type RemoteOptions, remoteTarget, withRemoteOptions } from './remote';

const print = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
};
const int = (value: string) => Number.parseInt(value, 10);

/**
 * The answer of one query: from the server at `--url` (its HTTP route, same body) or from
 * the service code in this process (opening the database).
 */
function answer<T>(
  o: RemoteOptions,
  path: string,
  body: object,
  local: (ctx: INestApplicationContext) => Promise<T>,
): Promise<unknown> {
  const target = remoteTarget(o);
  return target ? callServer(target, path, body) : withAppContext(local);
}

interface ContextOptions extends RemoteOptions {
  transcript: string;
  contactUid?: string;
  callId?: string;
  timeoutMs?: number;
  maxTokens?: number;
  poolK?: number;
  finalK?: number;
}

/** `context` and `explain`: one bundle request; `explain` also asks how it came to be. */
function contextCommand(program: Command, name: 'context' | 'explain', description: string) {
  return withRemoteOptions(
    program
      .command(name)
      .description(description)
      .requiredOption('--transcript <text>')
      .option('--contact-uid <id>')
      .option('--call-id <id>')
      .option('--timeout-ms <ms>', 'deadline', int)
      .option('--max-tokens <n>', 'excerpt token budget', int),
  ).action(async (o: ContextOptions) => {
    const request = {
      transcript: o.transcript,
      contact_uid: o.contactUid,
      call_id: o.callId,
      timeout_ms: o.timeoutMs,
      max_tokens: o.maxTokens,
      pool_k: o.poolK,
      final_k: o.finalK,
      ...(name === 'explain' ? { explain: true } : {}),
    };
    print(await answer(o, '/context', request, (ctx) => ctx.get(ContextService).build(request)));
  });
}

/**
 * The spec's scripts as subcommands (`context_fetch`, `vector_query`, `transcript_to_llm`,
 * `relevance_score`, plus `redact`), running the same services as the HTTP endpoints.
 */
export function registerQueryCommands(program: Command): void {
  contextCommand(
    program,
    'context',
    'build a context bundle for a transcript chunk (POST /context)',
  );
  contextCommand(
    program,
    'explain',
    'a context bundle and how it came to be: the scored pool (ranks, scores, fusion components, kept or why dropped), redactions per excerpt, stage timings (POST /context with explain: true)',
  )
    .option('--pool-k <n>', 'candidates per list before rerank', int)
    .option('--final-k <n>', 'hard cap on excerpts', int);

  withRemoteOptions(
    program
      .command('search')
      .description('nearest conversation chunks with cosine scores (POST /search)')
      .requiredOption('--query <text>')
      .option('--contact-uid <id>')
      .option('--top-k <n>', 'hits', int, 5),
  ).action(async (o: RemoteOptions & { query: string; contactUid?: string; topK: number }) => {
    const request = { query: o.query, contact_uid: o.contactUid, top_k: o.topK };
    print(await answer(o, '/search', request, (ctx) => ctx.get(SearchService).search(request)));
  });

  withRemoteOptions(
    program
      .command('prompt')
      .description(
        'structured LLM prompt from a bundle file or a fresh bundle (POST /context/prompt)',
      )
      .requiredOption('--transcript <text>')
      .option('--bundle-file <path>')
      .option('--contact-uid <id>')
      .option('--system-prompt-file <path>')
      .option('--max-tokens <n>', 'whole-prompt budget', int, 4000),
  ).action(
    async (
      o: RemoteOptions & {
        transcript: string;
        bundleFile?: string;
        contactUid?: string;
        systemPromptFile?: string;
        maxTokens: number;
      },
    ) => {
      const request = {
        transcript: o.transcript,
        contact_uid: o.contactUid,
        bundle: o.bundleFile
          ? (JSON.parse(readFileSync(o.bundleFile, 'utf8')) as ContextBundle)
          : undefined,
        system_prompt: o.systemPromptFile ? readFileSync(o.systemPromptFile, 'utf8') : undefined,
        prompt_max_tokens: o.maxTokens,
      };
      print(
        await answer(o, '/context/prompt', request, (ctx) =>
          ctx.get(ContextPromptService).build(request),
        ),
      );
    },
  );

  withRemoteOptions(
    program
      .command('score')
      .description('relevance of a candidate to a query, in [0, 1] (POST /relevance)')
      .requiredOption('--query <text>')
      .requiredOption('--candidate <text>'),
  ).action(async (o: RemoteOptions & { query: string; candidate: string }) => {
    const request = { query: o.query, candidate: o.candidate };
    print(
      await answer(o, '/relevance', request, (ctx) => ctx.get(RelevanceService).score(request)),
    );
  });

  withRemoteOptions(
    program
      .command('redact')
      .description('mask PII in text (POST /redact); reads stdin when --text is omitted')
      .option('--text <text>'),
  ).action(async (o: RemoteOptions & { text?: string }) => {
    const text = o.text ?? readFileSync(0, 'utf8');
    print(
      await answer(o, '/redact', { text }, (ctx) =>
        Promise.resolve(ctx.get(RedactionService).redact(text)),
      ),
    );
  });
}
