import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { chunkText } from '../../src/ingest/text-chunker';
import { SHARED_DATA } from './sgd';

/** One SQuAD paragraph (BEIR `corpus.jsonl`); `title` is the Wikipedia article it belongs to. */
export interface SquadParagraph {
  _id: string;
  title: string;
  text: string;
}

/** One question of the fixed 500-question sample, with its gold paragraph ids (qrels). */
export interface SquadQuestion {
  _id: string;
  text: string;
  /** The article of the gold paragraph(s): holding it out simulates an uncovered question. */
  title: string;
  gold: string[];
}

/** A paragraph cut the way KB ingestion cuts a topic's text (`chunkText`, 90 words). */
export interface SquadChunk {
  paragraphId: string;
  title: string;
  content: string;
}

const SQUAD = join(SHARED_DATA, 'squad');

const readJsonl = <T>(file: string): T[] =>
  readFileSync(join(SQUAD, file), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as T);

/** The 2,067 paragraphs of the 48 SQuAD v1.1 dev articles, in file order. */
export function loadSquadCorpus(): SquadParagraph[] {
  return readJsonl<SquadParagraph>('corpus.jsonl');
}

/** The fixed 500-question sample, in file order, each with its gold paragraph ids. */
export function loadSquadSample(): SquadQuestion[] {
  const gold = new Map<string, string[]>();
  const rows = readFileSync(join(SQUAD, 'qrels_sample500.tsv'), 'utf8').trim().split('\n');
  for (const row of rows.slice(1)) {
    const [queryId, corpusId, score] = row.split('\t');
    if (Number(score) > 0) {
      gold.set(queryId, [...(gold.get(queryId) ?? []), corpusId]);
    }
  }
  return readJsonl<{ _id: string; text: string; title: string }>('queries_sample500.jsonl').map(
    (q) => ({ _id: q._id, text: q.text, title: q.title, gold: gold.get(q._id) ?? [] }),
  );
}

/** Every paragraph chunked as `POST /ingest/kb` chunks a topic's text. */
export function chunkSquadCorpus(paragraphs: SquadParagraph[]): SquadChunk[] {
  return paragraphs.flatMap((p) =>
    chunkText(p.text).map((content) => ({ paragraphId: p._id, title: p.title, content })),
  );
}
