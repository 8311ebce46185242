import { initialSchemaMigration } from './1700000000000-initial-schema';
import { podiumContacts } from './1700000000001-podium-contacts';
import { podiumWebhookEvents } from './1700000000002-podium-webhook-events';
import { podiumContactTombstones } from './1700000000003-podium-contact-tombstones';
import { conversationMessages } from './1700000000004-conversation-messages';
import { bm25TermStatistics } from './1700000000005-bm25-term-statistics';
import { webhookLeasesTombstoneTimesPodiumCredentials } from './1700000000006-webhook-leases-tombstone-times-podium-credentials';
import { dropFullTextColumns } from './1700000000007-drop-full-text-columns';
import { scalePostings } from './1700000000008-scale-postings';
import { largeContactNearest } from './1700000000009-large-contact-nearest';
import { webhookLeaseOwner } from './1700000000010-webhook-lease-owner';
import { backgroundForget } from './1700000000011-background-forget';
import { turnKeysByConversation } from './1700000000012-turn-keys-by-conversation';
import { vectorsInRow } from './1700000000013-vectors-in-row';
import { erasureByMembership } from './1700000000014-erasure-by-membership';
import { rowLevelSecurity } from './1700000000015-row-level-security';
import { rowSecurityPostingProbe } from './1700000000016-row-security-posting-probe';
import { rowSecurityStableContactCheck } from './1700000000017-row-security-stable-contact-check';
import { embeddingModelRecord } from './1700000000018-embedding-model-record';
import { reembedProgress } from './1700000000019-reembed-progress';
import { leanLookupIndexes } from './1700000000020-lean-lookup-indexes';
import { messageIdsPerLocation } from './1700000000021-message-ids-per-location';
import { contactTimeIndex } from './1700000000022-contact-time-index';
import { narrowPostingCounts } from './1700000000023-narrow-posting-counts';
import { type Migration } from './migration';
import { wideVectors } from './wide-vectors';

/**
 * Every schema step, in order; the first needs the embedder's dimension (`vector(N)`, or
 * `halfvec(N)` over 2,000: see {@link wideVectors}).
 */
export function schemaMigrations(dimension: number): Migration[] {
  return [
    wideVectors(initialSchemaMigration(dimension), dimension),
    podiumContacts,
    podiumWebhookEvents,
    podiumContactTombstones,
    conversationMessages,
    bm25TermStatistics,
    webhookLeasesTombstoneTimesPodiumCredentials,
    dropFullTextColumns,
    scalePostings,
    largeContactNearest,
    webhookLeaseOwner,
    backgroundForget,
    turnKeysByConversation,
    vectorsInRow,
    erasureByMembership,
    rowLevelSecurity,
    rowSecurityPostingProbe,
    rowSecurityStableContactCheck,
    embeddingModelRecord,
    reembedProgress,
    leanLookupIndexes,
    messageIdsPerLocation,
    contactTimeIndex,
    narrowPostingCounts,
  ];
}
