import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Which embedding model wrote the store (migration 18): one row, read and written raw. */
@Entity('embedding_model')
export class EmbeddingModelEntity {
  @PrimaryColumn('boolean', { default: true }) singleton!: boolean;
  @Column('text') provider!: string;
  @Column('text') model!: string;
  @Column('int') dimension!: number;
  @Column('timestamptz', { name: 'recorded_at', default: () => 'now()' }) recordedAt!: Date;
}

/** The model a reembed under way moves the store to (migration 19): one row while it runs. */
@Entity('embedding_reembed')
export class EmbeddingReembedEntity {
  @PrimaryColumn('boolean', { default: true }) singleton!: boolean;
  @Column('text') provider!: string;
  @Column('text') model!: string;
  @Column('int') dimension!: number;
  @Column('timestamptz', { name: 'started_at', default: () => 'now()' }) startedAt!: Date;
}
