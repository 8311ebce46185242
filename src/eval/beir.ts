import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A BEIR-format retrieval set: documents, questions and graded judgements. */
export interface BeirSet {
  corpus: Array<{ id: string; title: string; text: string }>;
  queries: Array<{ id: string; text: string }>;
  /** query id → (document id → relevance > 0). */
  qrels: Map<string, Map<string, number>>;
}

export interface BeirFiles {
  corpus?: string;
  queries?: string;
  qrels?: string;
}

const text = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : '';

const readJsonl = (file: string): Array<Record<string, unknown>> =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** BEIR keeps qrels in `qrels.tsv` or `qrels/test.tsv`; the first that exists wins. */
function defaultQrels(dir: string): string {
  const flat = join(dir, 'qrels.tsv');
  return existsSync(flat) ? flat : join(dir, 'qrels', 'test.tsv');
}

/**
 * Loads `corpus.jsonl` (`_id`, `title`, `text`), `queries.jsonl` (`_id`, `text`) and the
 * qrels TSV (`query-id`, `corpus-id`, `score`, header line optional) from `dir`. Only
 * queries with at least one positive judgement are kept: the others cannot be scored.
 */
export function loadBeir(dir: string, files: BeirFiles = {}): BeirSet {
  const resolve = (file: string | undefined, fallback: string) =>
    file ? (file.startsWith('/') ? file : join(dir, file)) : fallback;
  const qrels = new Map<string, Map<string, number>>();
  const qrelsFile = resolve(files.qrels, defaultQrels(dir));
  for (const line of readFileSync(qrelsFile, 'utf8').split('\n')) {
    const [queryId, docId, score] = line.trim().split('\t');
    const relevance = Number(score);
    if (!docId || !Number.isFinite(relevance) || relevance <= 0) {
      continue; // the header, blank lines and negative judgements
    }
    const judged = qrels.get(queryId) ?? new Map<string, number>();
    judged.set(docId, relevance);
    qrels.set(queryId, judged);
  }
  const corpus = readJsonl(resolve(files.corpus, join(dir, 'corpus.jsonl'))).map((row) => ({
    id: text(row._id),
    title: text(row.title),
    text: text(row.text),
  }));
  const queries = readJsonl(resolve(files.queries, join(dir, 'queries.jsonl')))
    .map((row) => ({ id: text(row._id), text: text(row.text) }))
    .filter((q) => qrels.has(q.id) && q.text.trim().length > 0);
  return { corpus: corpus.filter((d) => d.text.trim().length > 0), queries, qrels };
}
