/**
 * Generated from libs/client/openapi.json by openapi-typescript: do not edit.
 * `npm run client:generate` refreshes both from the served document.
 */

export interface paths {
    "/ingest/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ingest conversation messages (chunked into windows, redacted, embedded)
         * @description Idempotent by content hash. A location-bound key may only send records carrying one of its location_uids (else 403 `location_forbidden`, nothing stored).
         */
        post: operations["Ingest_conversations"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ingest/kb": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ingest knowledge-base topics for R42 chat (chunks + summary, replaced per topic)
         * @description The knowledge base is shared: a location-bound key gets 403.
         */
        post: operations["Ingest_kb"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Nearest conversation chunks with cosine scores (the spec’s vector_query) */
        post: operations["Search_run"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["Metrics_scrape"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/context": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Context bundle for a live transcript chunk, inside a hard deadline
         * @description Live contact fields (they win) + redacted, reranked history under a token budget. A stage that misses the deadline is skipped and `meta.partial` says so. A location-bound key gets 403 for a location outside its binding; a contact outside it reads as unknown (contact.error 404). `explain: true` adds the scored candidate pool, redactions per excerpt and a stage waterfall (`explain`).
         */
        post: operations["Context_fetch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/context/prompt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Structured LLM prompt for a transcript turn (the spec’s transcript_to_llm) */
        post: operations["Context_buildPrompt"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/relevance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Relevance of candidates to a query, in [0, 1] (relevance_score) */
        post: operations["Relevance_score"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/calls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The call is ringing: track it, warm its caches, get an opening bundle
         * @description Resolves the live contact (warming its cache), lists its newest messages (redacted) within `timeout_ms` (default 300), and warms the contact’s history search in the background, so the first /context of the call costs what a later one does. Same auth, tenant binding and redaction as /context. 429 `too_many_calls` past CALLS_MAX_PER_CALLER or CALLS_MAX live calls. A call idle for CALLS_IDLE_MS ends on its own.
         */
        post: operations["Calls_open"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/calls/end": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The call ended: its final turns join the contact’s history
         * @description Drops the call’s state (speculation, its own memory) and stores its final /context chunks as one `voice` conversation of the contact, redacted, through the ingest path (a forget during the call drops what was said before it). Idempotent.
         */
        post: operations["Calls_end"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** R42 knowledge chat: a grounded, cited answer as server-sent events */
        post: operations["Chat_chatStream"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/redact": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mask PII in a text */
        post: operations["Redact_redact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["Health_live"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["Health_ready"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/podium": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["Webhooks_podium"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/widget/r42-chat.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The <r42-chat> web component: one minified ES module */
        get: operations["Widget_script"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/widget": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Demo: a mock employee-app screen with the R42 chat widget */
        get: operations["Widget_demo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/widget/demo.css": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Demo page styles */
        get: operations["Widget_css"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List contacts (id, name, location) of the embedded CRM
         * @description Up to `limit` (50) contacts by id. A location-bound key lists only its locations. With PODIUM_PROVIDER=api or none the CRM is not listed (`listable: false`).
         */
        get: operations["Contacts_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inspect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Inspector page: a bundle, its stage waterfall and scored pool */
        get: operations["Inspector_page"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inspect/inspector.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The inspector page’s script: one minified ES module */
        get: operations["Inspector_script"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inspect/inspector.css": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Inspector page styles */
        get: operations["Inspector_css"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts/forget": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Forget a contact's conversation history (the id in the body)
         * @description Removes every message of the contact stored before the request (whatever its date), every window that holds one of them, the postings and statistics derived from them, the contact’s own index, the webhook inbox’s copies and the live-contact cache, and writes a tombstone so that no route (a late webhook, a re-ingested export) stores those messages again; messages sent after the request are stored as usual. A location-bound key forgets only its own locations. Answers within about a second whatever the history’s size: a large history is unreadable at once and deleted in the background (`pending: true`), resumed after a restart. The answer carries a deletion receipt. Idempotent. A few forgets run at once per replica; a burst waits up to 2 s for a turn, then gets 429 `forget_busy` (Retry-After). Prefer this route: the id never appears in a URL.
         */
        post: operations["History_forgetByBody"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts/{contact_uid}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Forget a contact's conversation history
         * @description Removes every message of the contact stored before the request (whatever its date), every window that holds one of them, the postings and statistics derived from them, the contact’s own index, the webhook inbox’s copies and the live-contact cache, and writes a tombstone so that no route (a late webhook, a re-ingested export) stores those messages again; messages sent after the request are stored as usual. A location-bound key forgets only its own locations. Answers within about a second whatever the history’s size: a large history is unreadable at once and deleted in the background (`pending: true`), resumed after a restart. The answer carries a deletion receipt. Idempotent. A few forgets run at once per replica; a burst waits up to 2 s for a turn, then gets 429 `forget_busy` (Retry-After).
         */
        delete: operations["History_forget"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts/forget/receipts/{receipt_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A deletion receipt: when each derived store was cleared
         * @description Messages, windows, postings and statistics, the contact’s own index, vector points (Qdrant), webhook payloads and caches, each with the time it was cleared. A location-bound key reads only receipts of forgets within its locations.
         */
        get: operations["History_receipt"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/adapters/vapi/knowledge-base": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Vapi custom knowledge base: the context bundle as Vapi documents
         * @description Auth: `X-Vapi-Secret` (one of VAPI_SECRETS, scoped to that secret's locations) or an API key as `Authorization: Bearer` (scoped to the key's). `contact_uid` is `customer.externalId`, else `customer.number`, else `call.customer.number`; a call with none of them (caller ID withheld) gets no documents. The transcript is the trailing user turns of `messagesOpenAIFormatted` (else `messages`). The live contact document never carries phone or e-mail: caller ID can be spoofed. Anything but an auth failure answers 200; `{ documents: [] }` when the body is unusable, the caller is unidentified, the deadline ran out or a dependency failed.
         */
        post: operations["Vapi_knowledgeBase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * MCP (Streamable HTTP): tools context_fetch, search_history, redact, kb_search
         * @description A JSON-RPC message from an MCP client (send `Accept: application/json, text/event-stream`), or a batch of at most 8 (400 `mcp_batch_too_large`). Tool failures come back as tool results with `isError: true` and a JSON `{error, message}` text. A caller refused here (400, 406, 408, 413, 415 or 429) has its next /mcp requests refused unread for 5 s: 429 `mcp_caller_held` with Retry-After.
         */
        post: operations["Mcp_handle"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/vector_stores/{contact_uid}/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * OpenAI-compatible vector store search over one contact’s history
         * @description Point an OpenAI client at `<bridge>/v1` and use the contact_uid as the vector_store_id. Results are the reranked, redacted excerpts of `POST /context`.
         */
        post: operations["VectorStores_search"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ConversationMessageDto: {
            /** @description Podium's message uid: the message's stable id, so a re-delivery or a later export stores it once. Without it, the id is a hash of conversation, time, sender and text. */
            message_uid?: string;
            /** @description Messages of one conversation are windowed together. */
            conversation_uid: string;
            /** @description The customer. */
            contact_uid: string;
            /** @description The tenant. Required (and must be one of its own) for a location-bound key. */
            location_uid?: string;
            /** @example sms */
            channel: string;
            /**
             * Format: date-time
             * @example 2026-01-05T10:00:00Z
             */
            occurred_at: string;
            /** @example customer */
            sender: string;
            /** @description PII is redacted before storage. */
            text: string;
        };
        KbTopicDto: {
            /** @description Re-ingesting a topic replaces its chunks. */
            topic_id: string;
            title: string;
            /** @description Curriculum theme (boosted in its week). */
            theme_id?: string;
            summary: string;
            text: string;
        };
        IngestFailure: {
            /** @description Position of the record in the body (0-based). */
            index: number;
            error: string;
        };
        IngestReport: {
            /** @description Input records. */
            received: number;
            /** @description Chunks stored now. */
            inserted: number;
            /** @description Chunks already stored (idempotent re-runs). */
            skipped: number;
            failed: components["schemas"]["IngestFailure"][];
        };
        SearchRequestDto: {
            /** @description What to look for, in plain words. */
            query: string;
            /** @description Only this contact’s history. */
            contact_uid?: string;
            /** @description Only this location’s history. A location-bound API key is always limited to its own locations; naming another one is a 403. */
            location_uid?: string;
            /** @default 5 */
            top_k?: number;
        };
        SearchHitDto: {
            id: string;
            /** @description The conversation window, PII redacted. */
            content: string;
            /** @description Cosine similarity to the query. */
            score: number;
            contact_uid: string;
            conversation_uid: string;
            /** @example sms */
            channel: string;
            /** Format: date-time */
            occurred_at: string;
        };
        SearchResponseDto: {
            query: string;
            contact_uid?: string;
            top_k: number;
            hits: components["schemas"]["SearchHitDto"][];
        };
        ContextFetchRequestDto: {
            /** @description The live transcript chunk. */
            transcript: string;
            /** @description The caller. Its history only; a location-bound key must own its location. */
            contact_uid?: string;
            /** @description Chunks of one call share a sliding window of words. */
            call_id?: string;
            /** @description Restrict history to this location (must be one of a bound key’s own). */
            location_uid?: string;
            /** @description Hard deadline (default 800). */
            timeout_ms?: number;
            /** @description Candidates before rerank. */
            pool_k?: number;
            /** @description Hard cap on excerpts. Unset: FINAL_K (5) distinct excerpts, then more near the best score (up to CONTEXT_MAX_EXCERPTS, 12) while the token budget holds them. */
            final_k?: number;
            /** @description Excerpt token budget. */
            max_tokens?: number;
            /**
             * Format: date-time
             * @description When the question is asked (the call's time), years 1900–2199. Dates without a year and relative ones in the transcript ('in June', 'on the 8th of May', 'yesterday', 'last week') resolve against it for the date-filtered search of history; unset, only dates with a year do.
             * @example 2026-05-02T15:04:05Z
             */
            asked_at?: string;
            /**
             * @description Also return `explain`: the whole candidate pool with every score component and why each was kept or dropped, redactions per excerpt, and a stage waterfall. Same deadline, tenant rules and redaction as the bundle.
             * @default false
             */
            explain?: boolean;
            /**
             * @description false: an interim transcript hypothesis (needs `call_id`). It is not answered with a bundle (202 with `speculation`): the service may search it ahead of the final chunk, and a final whose query matches is then served from that search (`meta.speculative`). Default true.
             * @default true
             */
            is_final?: boolean;
        };
        HistoricalExcerpt: {
            id: string;
            /** @description A past conversation window, PII redacted. */
            content: string;
            /** @example sms */
            channel: string;
            /** Format: date-time */
            occurred_at: string;
            rerank_score: number;
            /** @description Cosine similarity to the query. */
            vector_score: number;
            /** @description Cut at a sentence boundary to fit the budget. */
            truncated?: boolean;
        };
        ContextMeta: {
            /** @description The coalesced query actually searched. */
            query: string;
            elapsed_ms: number;
            timeout_ms: number;
            /** @description A requested surface timed out or failed. */
            partial: boolean;
            had_vector_hits: boolean;
            had_live_lookup: boolean;
            reranked: boolean;
            /** @example fusion */
            reranker: string;
            /** @description Milliseconds per stage. */
            stages: {
                [key: string]: number;
            };
            /** @description Redactions by entity type. */
            redactions: {
                [key: string]: number;
            };
            dropped_excerpts: number;
            /** @description The excerpts come from a search run on an interim transcript of this call, ahead of the final chunk (its query matched this one). Live fields are always looked up for this request. */
            speculative: boolean;
            /** @description How old the searched history is, in ms: since the speculative search started (0 when searched for this request). */
            retrieved_age_ms: number;
        };
        CallTurnExcerpt: {
            /** @description What was said earlier in this call, PII redacted. */
            content: string;
            /** Format: date-time */
            said_at: string;
            /** @description Share of the query's terms this turn holds, in (0, 1]. */
            score: number;
        };
        ExplainCandidate: {
            id: string;
            conversation_uid: string;
            /** @example sms */
            channel: string;
            /** Format: date-time */
            occurred_at: string;
            /** @description 1-based rank in the dense list. */
            dense_rank: number | null;
            /** @description Cosine similarity to the query (also for BM25-only hits). */
            cosine: number;
            /** @description 1-based rank in the BM25 list. */
            bm25_rank: number | null;
            /** @description BM25 score (null: not found by BM25). */
            bm25_score: number | null;
            /** @description The reranker’s score components (fusion: rank, cosine, lexical, overlap, agreement, relevance, boilerplate, recency); null when the reranker has none or did not answer. */
            components: {
                [key: string]: number | null;
            } | null;
            /** @description The score the bundle orders by (rerank, or the cosine when degraded). */
            score: number;
            /** @enum {string} */
            outcome: "kept" | "merged" | "rank" | "threshold" | "budget";
            /** @description The excerpt it was merged into. */
            merged_into: string | null;
            /** @description Its turns are in the bundle (kept, or merged into a kept excerpt). */
            in_bundle: boolean;
            /** @description The window’s text, PII redacted exactly as excerpts are; null when the deadline left no time to redact it. */
            content: string | null;
        };
        ExplainExcerpt: {
            id: string;
            /** @description Every pool window in the excerpt, lead first. */
            window_ids: string[];
            /** @description Masked entities by type in this excerpt (as chosen, before the budget cut). */
            redactions: {
                [key: string]: number;
            };
            kept: boolean;
        };
        ExplainStage: {
            /** @example embed */
            name: string;
            /** @description Start, in ms after the request arrived (derived from the stage order). */
            start_ms: number;
            ms: number;
            /**
             * @description Stages in parallel lanes overlap.
             * @enum {string}
             */
            lane: "main" | "retrieval" | "live";
        };
        ContextExplain: {
            /** @example fusion */
            reranker: string;
            reranked: boolean;
            /** @description The pool size asked of each list. */
            pool_k: number;
            /** @description The whole pool, best score first. */
            candidates: components["schemas"]["ExplainCandidate"][];
            excerpts: components["schemas"]["ExplainExcerpt"][];
            stages: components["schemas"]["ExplainStage"][];
            /** @description The deadline cut the explanation short (some texts or components missing). */
            partial: boolean;
        };
        ContextBundle: {
            contact: {
                /** @enum {boolean} */
                live_fields_available: true;
                phone?: string | null;
                email?: string | null;
                opt_out_sms?: boolean | null;
                opt_out_email?: boolean | null;
                location_uid?: string | null;
                /** Format: date-time */
                last_seen_at?: string | null;
            } | {
                /** @enum {boolean} */
                live_fields_available: false;
                error?: number | ("timeout" | "unavailable" | "overloaded" | "not_configured");
            };
            historical_excerpts: components["schemas"]["HistoricalExcerpt"][];
            /** @description Exact o200k tokens of the kept excerpts. */
            token_count: number;
            meta: components["schemas"]["ContextMeta"];
            /** @description With `call_id`: earlier final chunks of this call that share terms with the query, best first (at most 3), redacted. They join the contact’s history when the call ends. */
            call_memory?: components["schemas"]["CallTurnExcerpt"][];
            /** @description Only with `explain: true`. */
            explain?: components["schemas"]["ContextExplain"];
        };
        InterimAccepted: {
            /** @enum {boolean} */
            accepted: true;
            /**
             * @description scheduled: searched once stable unless a running search already covers it; rate_limited: over 20 interims a second for this call, not searched; disabled: SPECULATION=false.
             * @enum {string}
             */
            speculation: "scheduled" | "rate_limited" | "disabled";
        };
        BundleExcerptDto: {
            content: string;
            rerank_score: number;
            channel?: string;
            /** Format: date-time */
            occurred_at?: string;
            id?: string;
            vector_score?: number;
            truncated?: boolean;
        };
        GivenBundleDto: {
            /** @description The contact block of a /context bundle. */
            contact: {
                [key: string]: unknown;
            };
            historical_excerpts: components["schemas"]["BundleExcerptDto"][];
        };
        ContextPromptRequestDto: {
            /** @description The live transcript chunk. */
            transcript: string;
            /** @description The caller. Its history only; a location-bound key must own its location. */
            contact_uid?: string;
            /** @description Chunks of one call share a sliding window of words. */
            call_id?: string;
            /** @description Restrict history to this location (must be one of a bound key’s own). */
            location_uid?: string;
            /** @description Hard deadline (default 800). */
            timeout_ms?: number;
            /** @description Candidates before rerank. */
            pool_k?: number;
            /** @description Hard cap on excerpts. Unset: FINAL_K (5) distinct excerpts, then more near the best score (up to CONTEXT_MAX_EXCERPTS, 12) while the token budget holds them. */
            final_k?: number;
            /** @description Excerpt token budget. */
            max_tokens?: number;
            /**
             * Format: date-time
             * @description When the question is asked (the call's time), years 1900–2199. Dates without a year and relative ones in the transcript ('in June', 'on the 8th of May', 'yesterday', 'last week') resolve against it for the date-filtered search of history; unset, only dates with a year do.
             * @example 2026-05-02T15:04:05Z
             */
            asked_at?: string;
            /** @description A bundle from an earlier /context call; without it, one is fetched. */
            bundle?: components["schemas"]["GivenBundleDto"];
            /** @description Replaces the default system prompt. */
            system_prompt?: string;
            /** @default 4000 */
            prompt_max_tokens?: number;
        };
        PromptBlockDto: {
            /** @enum {string} */
            name: "SYSTEM" | "LIVE CONTACT" | "HISTORICAL CONTEXT" | "TRANSCRIPT TURN";
            text: string;
            tokens: number;
            truncated: boolean;
        };
        ContextPromptResponseDto: {
            system: string;
            /** @description LIVE CONTACT, HISTORICAL CONTEXT and TRANSCRIPT TURN. */
            user: string;
            blocks: components["schemas"]["PromptBlockDto"][];
            /** @description Exact tokens of system + user, ≤ prompt_max_tokens. */
            token_count: number;
            excerpts: components["schemas"]["HistoricalExcerpt"][];
            dropped_excerpts: number;
        };
        RelevanceRequestDto: {
            query: string;
            /** @description Exactly one of candidate or candidates. */
            candidate?: string;
            candidates?: string[];
        };
        RelevanceResponseDto: {
            query: string;
            /** @example fusion */
            reranker: string;
            /** @description When `candidate` was given. */
            score?: number;
            /** @description One per candidate, in [0, 1], input order. */
            scores: number[];
        };
        CallStartDto: {
            /** @description The call; its /context chunks carry the same call_id. */
            call_id: string;
            /** @description The caller (the contact). */
            contact_uid?: string;
            /** @description Restrict to this location (one of a bound key’s own). */
            location_uid?: string;
            /** @description Deadline (default 300). */
            timeout_ms?: number;
            /** @description Recent messages (default 5). */
            max_messages?: number;
        };
        RecentMessage: {
            /** @example sms */
            channel: string;
            /** Format: date-time */
            occurred_at: string;
            /** @example customer */
            sender: string;
            /** @description PII redacted. */
            content: string;
        };
        CallOpeningMeta: {
            elapsed_ms: number;
            timeout_ms: number;
            /** @description The live lookup or the recent messages missed the deadline. */
            partial: boolean;
            /** @description The call ends (its turns join history) after this long idle. */
            idle_timeout_ms: number;
        };
        CallOpening: {
            call_id: string;
            /** @description Live CRM fields, as in a /context bundle. */
            contact: Record<string, unknown>;
            /** @description Newest first. */
            recent_messages: components["schemas"]["RecentMessage"][];
            meta: components["schemas"]["CallOpeningMeta"];
        };
        CallRefDto: {
            /** @description The call; its /context chunks carry the same call_id. */
            call_id: string;
            /** @description The caller (the contact). */
            contact_uid?: string;
            /** @description Restrict to this location (one of a bound key’s own). */
            location_uid?: string;
        };
        CallEnded: {
            /** @description False when no such live call was tracked (already ended). */
            ended: boolean;
            /** @description Final turns handed to the contact’s history. */
            joined_turns: number;
        };
        ChatTurnDto: {
            /** @enum {string} */
            role: "user" | "assistant";
            content: string;
        };
        ChatRequestDto: {
            query: string;
            /** @description The employee; with CHAT_AUTH=jwt it must equal the token sub. */
            userId: string;
            history?: components["schemas"]["ChatTurnDto"][];
        };
        RedactRequestDto: {
            /** @description The text to redact (at most 65,536 characters). */
            text: string;
        };
        RedactedEntityDto: {
            /** @example PHONE */
            type: string;
            /** @description Offset of the entity in the submitted text. */
            start: number;
            /** @description End offset (exclusive). */
            end: number;
        };
        RedactResponse: {
            /** @description With each entity replaced by `[REDACTED:TYPE]`. */
            text: string;
            entities: components["schemas"]["RedactedEntityDto"][];
        };
        ContactSummaryDto: {
            contact_uid: string;
            name: string | null;
            location_uid: string | null;
        };
        ContactListDto: {
            /** @description By contact id. */
            contacts: components["schemas"]["ContactSummaryDto"][];
            /** @description False when the CRM cannot be listed (PODIUM_PROVIDER=api): contacts is empty, type an id. */
            listable: boolean;
        };
        ForgetContactBody: {
            /** @description The contact whose history is forgotten. */
            contact_uid: string;
        };
        ForgetHistoryResponse: {
            contact_uid: string;
            /**
             * Format: uuid
             * @description The deletion receipt: `GET /contacts/forget/receipts/{receipt_id}` shows when each derived store was cleared.
             */
            receipt_id: string;
            /** @description The locations it was forgotten in (the key’s); null: every location. */
            location_uids: string[] | null;
            /** @description Conversations that lost messages. */
            conversations: number;
            /** @description Conversation windows removed from the vector store before the answer. */
            windows_removed: number;
            /** @description True when a large history is still being deleted in the background: none of it is returned by any route meanwhile, and the deletion resumes after a restart. */
            pending: boolean;
        };
        ReceiptStoreDto: {
            /** @enum {string} */
            store: "messages" | "windows" | "postings_and_statistics" | "contact_indexes" | "vector_points" | "webhook_payloads" | "caches";
            /**
             * Format: date-time
             * @description Null: not yet.
             */
            cleared_at?: Record<string, unknown> | null;
            /** @description False: this deployment has no such store (nothing to clear). */
            applies: boolean;
        };
        ErasureReceiptDto: {
            /** Format: uuid */
            receipt_id: string;
            location_uids: string[] | null;
            /** Format: date-time */
            requested_at: string;
            /**
             * Format: date-time
             * @description When every store was cleared; null while the deletion goes on.
             */
            completed_at?: Record<string, unknown> | null;
            stores: components["schemas"]["ReceiptStoreDto"][];
        };
        VapiOpenAiMessageDto: {
            /**
             * @description `user`, `assistant`, `system`, `tool`…
             * @example user
             */
            role: string;
            content?: string | null;
        };
        VapiMessageItemDto: {
            /**
             * @description `user`, `bot`, `system`, `tool_calls`…
             * @example user
             */
            role?: string;
            message?: string;
            content?: string;
        };
        VapiCustomerDto: {
            /** @description Your id for the caller: used as `contact_uid` when set. */
            externalId?: string;
            /** @description E.164 phone number: `contact_uid` without an externalId. */
            number?: string;
        };
        VapiCallDto: {
            /** @description The call id: chunks of one call are coalesced by it. */
            id?: string;
            customer?: components["schemas"]["VapiCustomerDto"];
        };
        VapiKnowledgeBaseRequestDto: {
            /** @enum {string} */
            type: "knowledge-base-request";
            /** @description Read first. */
            messagesOpenAIFormatted?: components["schemas"]["VapiOpenAiMessageDto"][];
            /** @description The fallback. */
            messages?: components["schemas"]["VapiMessageItemDto"][];
            call?: components["schemas"]["VapiCallDto"];
            customer?: components["schemas"]["VapiCustomerDto"];
        };
        VapiServerMessageDto: {
            message: components["schemas"]["VapiKnowledgeBaseRequestDto"];
        };
        VapiDocumentDto: {
            /** @description Live contact state, or one redacted history excerpt. */
            content: string;
            /** @description 1 for the live contact; the rerank score for an excerpt. */
            similarity: number;
            /** @description `contact:<contact_uid>`, or the excerpt id. */
            uuid: string;
        };
        VapiKnowledgeBaseResponseDto: {
            documents: components["schemas"]["VapiDocumentDto"][];
        };
        RankingOptionsDto: {
            /**
             * @description Ignored.
             * @enum {string}
             */
            ranker?: "none" | "auto" | "default-2024-11-15";
            /** @description Results scoring below this are dropped. */
            score_threshold?: number;
        };
        VectorStoreSearchRequestDto: {
            /** @description The live transcript chunk (several strings are joined). */
            query: string | string[];
            /** @default 10 */
            max_num_results?: number;
            /** @description Only `{type:"eq", key:"location_uid", value}` (optionally inside `{type:"and", filters}`). */
            filters?: {
                [key: string]: unknown;
            };
            ranking_options?: components["schemas"]["RankingOptionsDto"];
            /** @description Accepted and ignored: the transcript is searched as is. */
            rewrite_query?: boolean;
        };
        SearchResultTextDto: {
            /** @enum {string} */
            type: "text";
            /** @description The conversation window, PII redacted. */
            text: string;
        };
        VectorStoreSearchResultDto: {
            /** @description The excerpt id. */
            file_id: string;
            /** @example sms-2026-01-05T10:00:00.000Z.txt */
            filename: string;
            /** @description The rerank score. */
            score: number;
            /** @description `channel`, `occurred_at`, `contact_uid`, `vector_score`. */
            attributes: {
                [key: string]: string | number;
            };
            content: components["schemas"]["SearchResultTextDto"][];
        };
        VectorStoreSearchPageDto: {
            /** @enum {string} */
            object: "vector_store.search_results.page";
            search_query: string[];
            data: components["schemas"]["VectorStoreSearchResultDto"][];
            /** @description Always false: one page holds every result. */
            has_more: boolean;
            next_page: string | null;
        };
        ErrorBody: {
            /**
             * @description RFC 9457 problem type: `urn:context-bridge:problem:<error>`.
             * @example urn:context-bridge:problem:missing_api_key
             */
            type: string;
            /** @description What the problem type means; fixed per `error` code. */
            title: string;
            /**
             * @description The HTTP status, repeated.
             * @example 401
             */
            status: number;
            /** @description This occurrence, for humans (the same text as `message`). */
            detail: string;
            /**
             * @description Stable machine code. Known codes:
             *     - `validation_failed` (400: a field is missing or invalid (message lists each one))
             *     - `invalid_json` (400: the body is not valid JSON)
             *     - `invalid_body_encoding` (400: the body is not valid UTF-8 (JSON and NDJSON bodies must be))
             *     - `empty_batch` (400: an ingestion body holds no records)
             *     - `call_id_required` (400: an interim chunk (is_final: false) without its call_id)
             *     - `occurred_at_in_future` (400: an occurred_at further ahead of the server clock than HISTORY_MAX_FUTURE_SECONDS; nothing stored)
             *     - `too_many_records` (400: more records than INGEST_MAX_RECORDS)
             *     - `mcp_batch_too_large` (400: a JSON-RPC batch over 8 messages on /mcp)
             *     - `invalid_candidates` (400: /relevance needs exactly one of candidate or candidates)
             *     - `text_too_large` (400: /redact text over 64 Ki characters)
             *     - `unsupported_filter` (400: /v1/vector_stores search filters other than one location_uid)
             *     - `missing_api_key` (401: no `Authorization: Bearer` or `x-api-key` header)
             *     - `invalid_api_key` (401: the key matches no configured hash)
             *     - `invalid_vapi_secret` (401: X-Vapi-Secret matches none of VAPI_SECRETS)
             *     - `missing_token` (401: CHAT_AUTH=jwt and no Bearer token)
             *     - `invalid_token` (401: the chat token is forged, malformed or has the wrong issuer/audience)
             *     - `token_expired` (401: the chat token has expired)
             *     - `token_user_mismatch` (401: userId differs from the token subject)
             *     - `chat_auth_required` (403: NODE_ENV=production and CHAT_AUTH unset: POST /chat is closed)
             *     - `origin_forbidden` (403: a WebSocket upgrade whose Origin is not in CORS_ORIGINS (a page of another site))
             *     - `location_forbidden` (403: the key is bound to other location_uids than the data asked for)
             *     - `insufficient_scope` (403: the key's scopes do not include the one this route needs (required_scope))
             *     - `not_found` (404: no such route)
             *     - `body_timeout` (408: the body did not arrive within HTTP_BODY_TIMEOUT_MS; the connection closes)
             *     - `path_parameter_too_long` (414: a path parameter longer than any valid id (the id is never echoed))
             *     - `invalid_url` (400: the URL could not be parsed)
             *     - `malformed_request` (400: Node's HTTP parser refused the request (two Content-Lengths, a bad chunk, …); the connection closes)
             *     - `headers_too_large` (431: request line and headers over 16 KiB; the connection closes)
             *     - `request_timeout` (408: the request's headers within 60 s, or the whole request within 120 s, did not arrive; the connection closes)
             *     - `payload_too_large` (413: body over 1 MB (32 MB for /ingest/*))
             *     - `record_too_large` (413: an NDJSON line over 1 MiB (no record is that large))
             *     - `unsupported_media_type` (415: use application/json (or application/x-ndjson for /ingest/*))
             *     - `unsupported_content_encoding` (415: a body with a Content-Encoding (gzip, br…); bodies are not decoded, send them uncompressed)
             *     - `upgrade_required` (426: GET /calls/{call_id}/stream is a WebSocket; send the upgrade handshake)
             *     - `rate_limited` (429: per-key or per-IP rate limit; see Retry-After)
             *     - `ingest_busy` (429: INGEST_MAX_INFLIGHT uploads already running; see Retry-After)
             *     - `forget_busy` (429: the forgets this replica runs at once are running and queued; see Retry-After)
             *     - `mcp_caller_held` (429: this caller's last /mcp request was refused (batch over 8, malformed or oversized body, rate limit); its /mcp requests are refused unread for a few seconds; see Retry-After)
             *     - `probe_rate_limited` (429: over 60 /health/ready probes a second from one address; see Retry-After)
             *     - `pipeline_too_deep` (429: more than 16 requests sent on one connection before their answers were read (HTTP pipelining); the connection closes)
             *     - `too_many_calls` (429: CALLS_MAX_PER_CALLER (per key) or CALLS_MAX live calls already tracked)
             *     - `stream_busy` (429: a call stream's final while 2 of its finals are still being answered)
             *     - `stream_finals_rate_limited` (429: a call stream's finals faster than 1 a second (after 3 at once); a turn ends about once a second at most)
             *     - `internal_error` (500: unexpected; quote request_id)
             *     - `service_unavailable` (503: shutting down or a dependency is not ready)
             *     - `database_unavailable` (503: the database cannot be reached or is not open yet; retry shortly)
             *     - `database_timeout` (503: a database statement ran past DATABASE_STATEMENT_TIMEOUT_MS)
             *     - `database_conflict` (503: a concurrent write held what this one needed and the retries ran out; retry shortly)
             *     - `contact_cache_failed` (503: the shared contact cache refused to drop a deleted contact; retry)
             *     - `overloaded` (503: RELEVANCE_MAX_INFLIGHT /relevance calls already running; retry shortly)
             *     - `relevance_timeout` (503: /relevance scoring passed RELEVANCE_TIMEOUT_MS; its work was stopped)
             *     - `embedder_busy` (503: the embedder's live queue for this route is full; retry shortly)
             *     - `chat_busy` (503: CHAT_MAX_INFLIGHT chat answers already streaming; retry shortly)
             *     - `search_busy` (503: every /search (and MCP search_history) slot is busy; retry shortly)
             *     - `search_timeout` (503: the search passed its 2 s deadline; its work was stopped)
             *     - `identity_provider_unavailable` (503: the JWKS at CHAT_JWKS_URL could not be fetched)
             * @example missing_api_key
             */
            error: string;
            /** @description For humans; may change between versions. */
            message: string;
            /** @description Also in the `x-request-id` response header. */
            request_id: string;
            /** @description Structured extras, e.g. `retry_after_s`, offending `indexes`. */
            details?: {
                [key: string]: unknown;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    Ingest_conversations: {
        parameters: {
            query?: never;
            header: {
                "content-type": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description Conversation messages: a JSON array, a single object, or NDJSON (one object per line). Each record is validated on its own; bad ones are reported by index. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConversationMessageDto"][] | components["schemas"]["ConversationMessageDto"];
                "application/x-ndjson": components["schemas"]["ConversationMessageDto"][] | components["schemas"]["ConversationMessageDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestReport"];
                };
            };
            /** @description `validation_failed`, `invalid_json` or a route-specific code */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `missing_api_key` or `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `insufficient_scope`: the key lacks `ingest:write`; or `location_forbidden`: the key is bound to other locations */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` or `ingest_busy` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    Ingest_kb: {
        parameters: {
            query?: never;
            header: {
                "content-type": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description KB topics: a JSON array, a single object, or NDJSON (one object per line). Each record is validated on its own; bad ones are reported by index. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["KbTopicDto"][] | components["schemas"]["KbTopicDto"];
                "application/x-ndjson": components["schemas"]["KbTopicDto"][] | components["schemas"]["KbTopicDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestReport"];
                };
            };
            /** @description `validation_failed`, `invalid_json` or a route-specific code */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `missing_api_key` or `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `insufficient_scope`: the key lacks `ingest:write`; or `location_forbidden`: the key is bound to other locations */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` or `ingest_busy` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    Search_run: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SearchRequestDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResponseDto"];
                };
            };
            /** @description `validation_failed`, `invalid_json` or a route-specific code */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `missing_api_key` or `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `insufficient_scope`: the key lacks `search:read`; or `location_forbidden`: the key is bound to other locations */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    Metrics_scrape: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    Context_fetch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ContextFetchRequestDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContextBundle"];
                };
            };
            /** @description An interim chunk (is_final: false). */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InterimAccepted"];
                };
            };
            /** @description `validation_failed`, `invalid_json` or a route-specific code */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `missing_api_key` or `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `insufficient_scope`: the key lacks `context:read`; or `location_forbidden`: the key is bound to other locations */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    Context_buildPrompt: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ContextPromptRequestDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContextPromptResponseDto"];
                };
            };
            /** @description `validation_failed`, `invalid_json` or a route-specific code */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `missing_api_key` or `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `insufficient_scope`: the key lacks `context:read`; or `location_forbidden`: the key is bound to other locations */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    Relevance_score: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RelevanceRequestDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RelevanceResponseDto"];
                };
            };
            /** @description `validation_failed`, `invalid_json` or a route-specific code */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `missing_api_key` or `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `insufficient_scope`: the key lacks `context:read`; or `location_forbidden`: the key is bound to other locations */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    Calls_open: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CallStartDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CallOpening"];
                };
            };
            /** @description `validation_failed`, `invalid_json` or a route-specific code */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `missing_api_key` or `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `insufficient_scope`: the key lacks `context:read`; or `location_forbidden`: the key is bound to other locations */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    Calls_end: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CallRefDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CallEnded"];
                };
            };
            /** @description `validation_failed`, `invalid_json` or a route-specific code */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `missing_api_key` or `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `insufficient_scope`: the key lacks `context:read`; or `location_forbidden`: the key is bound to other locations */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    Chat_chatStream: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChatRequestDto"];
            };
        };
        responses: {
            /** @description One `data: <json>` frame per event; the stream ends with `done`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": {
                        /** @enum {string} */
                        type: "chunk";
                        text: string;
                    } | {
                        /** @enum {string} */
                        type: "citations";
                        topics: {
                            id: string;
                            title: string;
                        }[];
                    } | {
                        /** @enum {string} */
                        type: "out_of_scope";
                        text: string;
                    } | {
                        /** @enum {string} */
                        type: "error";
                        error: string;
                        message: string;
                    } | {
                        /** @enum {string} */
                        type: "done";
                    };
                };
            };
            /** @description `validation_failed`, `invalid_json` or a route-specific code */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    Redact_redact: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RedactRequestDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RedactResponse"];
                };
            };
            /** @description `validation_failed`, `invalid_json` or a route-specific code */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `missing_api_key` or `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `insufficient_scope`: the key lacks `context:read`; or `location_forbidden`: the key is bound to other locations */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    Health_live: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Health Check is successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example ok */
                        status?: string;
                        /**
                         * @example {
                         *       "database": {
                         *         "status": "up"
                         *       }
                         *     }
                         */
                        info?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } | null;
                        /** @example {} */
                        error?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } | null;
                        /**
                         * @example {
                         *       "database": {
                         *         "status": "up"
                         *       }
                         *     }
                         */
                        details?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Health Check is not successful */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example error */
                        status?: string;
                        /**
                         * @example {
                         *       "database": {
                         *         "status": "up"
                         *       }
                         *     }
                         */
                        info?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } | null;
                        /**
                         * @example {
                         *       "redis": {
                         *         "status": "down",
                         *         "message": "Could not connect"
                         *       }
                         *     }
                         */
                        error?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } | null;
                        /**
                         * @example {
                         *       "database": {
                         *         "status": "up"
                         *       },
                         *       "redis": {
                         *         "status": "down",
                         *         "message": "Could not connect"
                         *       }
                         *     }
                         */
                        details?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
        };
    };
    Health_ready: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Health Check is successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example ok */
                        status?: string;
                        /**
                         * @example {
                         *       "database": {
                         *         "status": "up"
                         *       }
                         *     }
                         */
                        info?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } | null;
                        /** @example {} */
                        error?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } | null;
                        /**
                         * @example {
                         *       "database": {
                         *         "status": "up"
                         *       }
                         *     }
                         */
                        details?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Health Check is not successful */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example error */
                        status?: string;
                        /**
                         * @example {
                         *       "database": {
                         *         "status": "up"
                         *       }
                         *     }
                         */
                        info?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } | null;
                        /**
                         * @example {
                         *       "redis": {
                         *         "status": "down",
                         *         "message": "Could not connect"
                         *       }
                         *     }
                         */
                        error?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } | null;
                        /**
                         * @example {
                         *       "database": {
                         *         "status": "up"
                         *       },
                         *       "redis": {
                         *         "status": "down",
                         *         "message": "Could not connect"
                         *       }
                         *     }
                         */
                        details?: {
                            [key: string]: {
                                status: string;
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
        };
    };
    Webhooks_podium: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `validation_failed`, `invalid_json` or a route-specific code */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    Widget_script: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bundle; its SRI hash is in the README. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `widget_unavailable`: not built */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    Widget_demo: {
        parameters: {
            query?: {
                /** @description A topic a citation pill opened */
                topic?: unknown;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The demo page, under a strict Content-Security-Policy. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    Widget_css: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stylesheet. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    Contacts_list: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactListDto"];
                };
            };
            /** @description `missing_api_key` or `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `insufficient_scope`: the key lacks `admin`; or `location_forbidden`: the key is bound to other locations */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    Inspector_page: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A static page under a strict Content-Security-Policy. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    Inspector_script: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bundle. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `inspector_unavailable`: not built */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    Inspector_css: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stylesheet. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    History_forgetByBody: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ForgetContactBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForgetHistoryResponse"];
                };
            };
            /** @description `validation_failed`, `invalid_json` or a route-specific code */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `missing_api_key` or `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `insufficient_scope`: the key lacks `history:delete`; or `location_forbidden`: the key is bound to other locations */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    History_forget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The contact whose history is forgotten. */
                contact_uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForgetHistoryResponse"];
                };
            };
            /** @description `missing_api_key` or `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `insufficient_scope`: the key lacks `history:delete`; or `location_forbidden`: the key is bound to other locations */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    History_receipt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The `receipt_id` a forget answered with. */
                receipt_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErasureReceiptDto"];
                };
            };
            /** @description `missing_api_key` or `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `insufficient_scope`: the key lacks `history:delete`; or `location_forbidden`: the key is bound to other locations */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    Vapi_knowledgeBase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Vapi server secret */
                "x-vapi-secret"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VapiServerMessageDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VapiKnowledgeBaseResponseDto"];
                };
            };
            /** @description `validation_failed`, `invalid_json` or a route-specific code */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    Mcp_handle: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    jsonrpc: "2.0";
                    id?: string | number;
                    /** @example tools/call */
                    method?: string;
                    params?: {
                        [key: string]: unknown;
                    };
                    result?: {
                        [key: string]: unknown;
                    };
                    error?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description The JSON-RPC response (202 with no body for a notification). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        id?: string | number;
                        /** @example tools/call */
                        method?: string;
                        params?: {
                            [key: string]: unknown;
                        };
                        result?: {
                            [key: string]: unknown;
                        };
                        error?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description `validation_failed`, `invalid_json` or a route-specific code */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `missing_api_key` or `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `insufficient_scope`: the key lacks `context:read`; or `location_forbidden`: the key is bound to other locations */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    VectorStores_search: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The contact whose history is searched (the "vector store"). */
                contact_uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VectorStoreSearchRequestDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VectorStoreSearchPageDto"];
                };
            };
            /** @description `validation_failed`, `invalid_json` or a route-specific code */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `missing_api_key` or `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `insufficient_scope`: the key lacks `search:read`; or `location_forbidden`: the key is bound to other locations */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `internal_error` (quote the request_id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
}
