import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/** BM25 statistics per contact (kept exact by statement triggers; read on the hot path). */
@Entity('lexical_contact_stats')
export class LexicalContactStatsEntity {
  @PrimaryColumn('text', { name: 'contact_uid' }) contactUid!: string;
  @Column('bigint') docs!: string;
  @Column('bigint') terms!: string;
}

@Entity('lexical_contact_term_stats')
export class LexicalContactTermStatsEntity {
  @PrimaryColumn('text', { name: 'contact_uid' }) contactUid!: string;
  @PrimaryColumn('text') term!: string;
  @Column('int') df!: number;
}

/** Per-collection statistics, sharded by transaction so concurrent writers do not collide. */
@Entity('lexical_doc_stats')
export class LexicalDocStatsEntity {
  @PrimaryColumn('text') collection!: string;
  @PrimaryColumn('int', { default: 0 }) shard!: number;
  @Column('bigint') docs!: string;
  @Column('bigint') terms!: string;
}

@Entity('lexical_term_stats')
export class LexicalTermStatsEntity {
  @PrimaryColumn('text') collection!: string;
  @PrimaryColumn('text') term!: string;
  @PrimaryColumn('int', { default: 0 }) shard!: number;
  @Column('int') df!: number;
}

/** A large contact's own partial HNSW index, built in the background. */
@Entity('large_contact_indexes')
export class LargeContactIndexEntity {
  @PrimaryColumn('text', { name: 'contact_uid' }) contactUid!: string;
  @Column('text', { name: 'index_name', unique: true }) indexName!: string;
  @Column('boolean', { default: false }) ready!: boolean;
  @Column('timestamptz', { name: 'claimed_at', default: () => 'now()' }) claimedAt!: Date;
}

/** The `migrations` history table, in the layout TypeORM itself uses. */
@Entity('migrations')
export class MigrationHistoryEntity {
  @PrimaryGeneratedColumn('increment') id!: number;
  @Column('bigint') timestamp!: string;
  @Column('varchar') name!: string;
}
