import {
  byteBound,
  ConfigurationError,
  DependencyError,
  inSpan,
  InvalidInputError,
  numbersBytes,
  recordingSpan,
  sweepStale,
  TEXT_CACHE_TTL,
} from '@app/common';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { LRUCache } from 'lru-cache';

import {
  DEFAULT_EMBEDDING_OPTIONS,
  EMBEDDING_OPTIONS,
  EMBEDDING_PROVIDERS,
  type EmbeddingModuleOptions,
} from './embedding.module-definition';
import { createEmbeddingProvider } from './embedding.providers';
import {
  EMBEDDING_PROVIDER,
  type EmbeddingLane,
  type EmbeddingModelInfo,
  type EmbeddingProvider,
} from './interfaces/embedding-provider.interface';

/** Bytes of query texts and vectors cached: twice what 2,000 queries of 1,000 characters at 768-d hold. */
const QUERY_CACHE_BYTES = 32 * 1024 * 1024;
/** How long a provider replaced by {@link EmbeddingService.switchModel} serves calls in flight. */
const RETIRE_AFTER_MS = 30_000;

/**
 * The embedding facade the rest of the app uses: validates input, caches query vectors
 * (agents repeat themselves turn after turn) and reports readiness for health checks.
 */
@Injectable()
export class EmbeddingService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(EmbeddingService.name);
  private modelInfo?: EmbeddingModelInfo;
  private loading?: Promise<EmbeddingModelInfo>;
  private readonly queryCache?: LRUCache<string, number[]>;
  private readonly retired = new Set<EmbeddingProvider>();

  constructor(
    @Inject(EMBEDDING_PROVIDER) private provider: EmbeddingProvider,
    @Inject(EMBEDDING_OPTIONS) private readonly options: EmbeddingModuleOptions,
  ) {
    const size = options.queryCacheSize ?? DEFAULT_EMBEDDING_OPTIONS.queryCacheSize;
    // Keyed by the caller's query text, so bounded in bytes as well as in entries.
    this.queryCache =
      size > 0
        ? sweepStale(
            new LRUCache({
              max: size,
              ...byteBound<number[]>(QUERY_CACHE_BYTES, numbersBytes),
              ...TEXT_CACHE_TTL, // transcripts: an erased caller's words expire too
            }),
          )
        : undefined;
  }

  async onModuleInit(): Promise<void> {
    await this.whenReady();
  }

  /** Loads the model once; every caller that needs the dimension awaits the same promise. */
  whenReady(): Promise<EmbeddingModelInfo> {
    this.loading ??= (async () => {
      const started = Date.now();
      const info = await this.provider.init();
      this.modelInfo = info;
      this.logger.log(
        `embedder ready: ${info.provider}/${info.model} (${info.dimension}-d) in ${Date.now() - started} ms`,
      );
      return this.info;
    })();
    return this.loading;
  }

  /** Runs after the HTTP server has drained, so in-flight requests can still embed. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.provider, ...this.retired].map((p) => p.close()));
  }

  /**
   * Serves `target` from now on, because the store moved to it (`reembed`): a provider built
   * from this service's options with the target's provider, model and dimension. Cached
   * query vectors are the old model's, so they go; the old provider is closed once calls in
   * flight have had time to finish.
   */
  async switchModel(target: {
    provider: string;
    model: string;
    dimension: number;
  }): Promise<EmbeddingModelInfo> {
    const provider = EMBEDDING_PROVIDERS.find((p) => p === target.provider);
    if (!provider) {
      throw new ConfigurationError(`The store's embedding provider ${target.provider} is unknown.`);
    }
    const next = createEmbeddingProvider({ ...this.options, ...target, provider });
    // One that cannot start is closed too: the follower tries again every second.
    const info = await next.init().catch(async (error: unknown) => {
      await next.close().catch(() => undefined);
      throw error;
    });
    if (info.model !== target.model || info.dimension !== target.dimension) {
      await next.close();
      throw new ConfigurationError(
        `The store's model ${target.model} (${target.dimension}-d) could not be served: ` +
          `the provider answers ${info.model} (${info.dimension}-d).`,
      );
    }
    const old = this.provider;
    this.provider = next;
    this.modelInfo = info;
    this.loading = Promise.resolve(info);
    this.queryCache?.clear();
    this.retired.add(old);
    setTimeout(() => {
      this.retired.delete(old);
      void old.close().catch(() => undefined);
    }, RETIRE_AFTER_MS).unref();
    this.logger.log(
      `embedder switched to the store's model ${info.provider}/${info.model} (${info.dimension}-d)`,
    );
    return this.info;
  }

  /** True once the model is loaded or the remote server answered. */
  get ready(): boolean {
    return this.modelInfo !== undefined;
  }

  get info(): EmbeddingModelInfo {
    if (!this.modelInfo) {
      throw new DependencyError('embedder_not_ready', 'The embedding model is still loading.');
    }
    return this.options.threshold === undefined
      ? this.modelInfo
      : { ...this.modelInfo, defaultThreshold: this.options.threshold };
  }

  /** Embeds passages for storage. Blank texts are a caller bug: they have no meaning to embed. */
  async embedDocuments(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    if (texts.length === 0) {
      return [];
    }
    if (texts.some((t) => t.trim().length === 0)) {
      throw new InvalidInputError('empty_text', 'Cannot embed an empty text.');
    }
    return inSpan(
      'embedding.documents',
      () => this.provider.embedBatch(texts, signal, 'bulk'),
      () => ({
        'embedding.texts': texts.length,
        'embedding.provider': this.modelInfo?.provider ?? 'loading',
      }),
      { requireParent: true },
    );
  }

  /**
   * Embeds one query, served from the LRU cache when the same text was seen recently. `lane`:
   * `context` for `/context` (served first), `query` for the other live routes.
   */
  async embedQuery(
    text: string,
    signal?: AbortSignal,
    lane: Exclude<EmbeddingLane, 'bulk'> = 'query',
  ): Promise<number[]> {
    const key = text.trim().replace(/\s+/g, ' ');
    if (key.length === 0) {
      throw new InvalidInputError('empty_text', 'Cannot embed an empty query.');
    }
    return inSpan(
      'embedding.query',
      async () => {
        const cached = this.queryCache?.get(key);
        recordingSpan()?.setAttributes({
          'embedding.cache_hit': cached !== undefined,
          'embedding.provider': this.modelInfo?.provider ?? 'loading',
        });
        if (cached) {
          return cached;
        }
        const provider = this.provider;
        const [vector] = await provider.embedBatch([key], signal, lane);
        // Switched meanwhile (switchModel): the old model's vector is never cached for the new.
        if (this.provider === provider) {
          this.queryCache?.set(key, vector);
        }
        return vector;
      },
      undefined,
      { requireParent: true },
    );
  }
}
