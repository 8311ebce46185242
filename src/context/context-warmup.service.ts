import { PromptService } from '@app/prompt';
import { RedactionService } from '@app/redaction';
import { type RerankCandidate, RERANKER, type Reranker } from '@app/rerank';
import { VECTOR_STORE, type VectorStore } from '@app/vector';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { HybridSearchService } from '../retrieval/hybrid-search.service';
import { StoreBootstrap } from '../retrieval/store-bootstrap.service';
import { datedRange } from './dated/dated-leg';

/** A contact id no real contact has: the warm-up searches touch no customer's history. */
const WARMUP_CONTACT = '__context_bridge_warmup__';

/** Synthetic turns in the shape of live ones (a number, an email, an address to redact). */
const TURNS = [
  'hi, I am calling about my order 4410 and the delivery date',
  'can you send the invoice to pat.example@example.com please',
  'my card ending 4242 was charged twice for the same sofa',
  'we moved to 12 Harbor Street, can you update the shipping address',
  'the replacement part never arrived and I need it before friday',
  'what did we agree about the refund last time I called',
];

const ROUNDS = 12;
/**
 * Searches in flight at once during the warm-up: each pooled server connection plans the
 * named statements on first use, so the warm-up must reach every connection, not one.
 */
const PARALLEL = 10;

/**
 * Runs every stage of the /context pipeline on synthetic input at boot, before the server
 * listens: the first inferences, SQL plans, tokenizer tables, phone metadata and V8 tier-ups
 * are paid here instead of by the first callers (docs/benchmarks.md, "First requests after
 * boot", has the figures). Remote rerankers are not called.
 */
@Injectable()
export class ContextWarmup implements OnModuleInit {
  private readonly logger = new Logger(ContextWarmup.name);

  constructor(
    private readonly bootstrap: StoreBootstrap,
    private readonly hybrid: HybridSearchService,
    @Inject(RERANKER) private readonly reranker: Reranker,
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
    private readonly redaction: RedactionService,
    private readonly prompt: PromptService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * A task of the store's start-up, so it runs before readiness goes up whenever the store
   * comes up: at boot, or later after the database was unreachable at boot. (Checking for a
   * ready store at application bootstrap skipped it whenever the database opened late.) Not
   * in a CLI command: it serves no first callers, and would only load production's database.
   */
  onModuleInit(): void {
    if (this.config.role === 'cli') {
      return;
    }
    this.bootstrap.beforeReady(() => this.warm(), 'last');
  }

  async warm(): Promise<void> {
    const started = performance.now();
    const excerpts = TURNS.map((content, i) => ({ content, rerank_score: 1 - i / 10 }));
    try {
      // Real contacts when the store has some: their relation and index pages, and every
      // plan (a large history walks HNSW, a small one the contact btree), on real rows.
      const contacts = [WARMUP_CONTACT, ...((await this.store.sampleContacts?.()) ?? [])];
      const ranges = [undefined, datedRange('on 1 January 2026')];
      for (let round = 0; round < ROUNDS; round++) {
        const query = `${TURNS[round % TURNS.length]} (${round})`;
        // Both SQL plans: per contact (the bridge) and unfiltered (HNSW), on every connection.
        const pools = await Promise.all(
          Array.from({ length: PARALLEL }, (_, i) => {
            const contact = contacts[(round + i) % (contacts.length + 1)];
            const filter = contact ? { contact_uid: contact } : {};
            // Every other round also the date leg's statement (a question that names a date).
            return this.hybrid.pool(query, filter, 20, undefined, 'context', ranges[round % 2]);
          }),
        );
        const found = pools.flatMap((p) => p.candidates);
        if (this.reranker.name === 'fusion' || this.reranker.name === 'none') {
          await this.reranker.score(query, found.length ? found : this.candidates());
        }
        // Real excerpts through redaction and the budget (nothing leaves: results are dropped).
        const real = found
          .slice(0, 8)
          .map((c, i) => ({ content: c.content, rerank_score: 1 - i / 10 }));
        this.prompt.enforceBudget(
          this.redaction.redactBundle([...excerpts, ...real]).excerpts,
          1500,
        );
      }
      this.logger.log(`hot paths warmed in ${Math.round(performance.now() - started)} ms`);
    } catch (error) {
      // A warm-up is an optimisation: never fail the boot over it.
      this.logger.warn(`warm-up skipped: ${(error as Error).name}`);
    }
  }

  private candidates(): RerankCandidate[] {
    return TURNS.map((content, i) => ({
      id: `warmup-${i}`,
      content,
      denseScore: 0.6 - i / 20,
      denseRank: i + 1,
      lexicalRank: i % 2 ? i : undefined,
      occurredAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
    }));
  }
}
