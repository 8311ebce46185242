#!/usr/bin/env bash
# Where a window insert's time goes, index by index, on a grown store (bench:scale's):
# N windows sampled from the store (default 2,133, bench:scale's ingest batch) are inserted
# again under new ids with their postings, in one statement as the service writes them,
# inside a transaction that is rolled back; each variant drops every vector and posting index
# but one first. Prints one JSON line per variant: the fastest of three runs (ms).
#   DATABASE_URL=postgres://… npm run bench:insert-cost
# Autovacuum on the store's tables distorts the figures on a 2-core box: run it quiet.
set -euo pipefail
url=${DATABASE_URL:?set DATABASE_URL to a store bench:scale grew}
n=${BENCH_INSERT_WINDOWS:-2133}
export PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning"
psql_q() { psql "$url" -v ON_ERROR_STOP=1 -qAt "$@"; }

psql_q <<SQL
DROP TABLE IF EXISTS insert_cost_src, insert_cost_terms, insert_cost_map;
CREATE TABLE insert_cost_src AS
  SELECT * FROM podium_conversations ORDER BY md5(id::text) LIMIT $n;
CREATE TABLE insert_cost_map AS SELECT id AS old, gen_random_uuid() AS new FROM insert_cost_src;
CREATE TABLE insert_cost_terms AS
  SELECT t.* FROM podium_conversations_terms t JOIN insert_cost_src s ON s.id = t.doc_id;
SQL
trap 'psql_q -c "DROP TABLE IF EXISTS insert_cost_src, insert_cost_terms, insert_cost_map"' EXIT

windows=$(psql_q -c "SELECT count(*) FROM podium_conversations")
postings=$(psql_q -c "SELECT count(*) FROM insert_cost_terms")
contact_hnsw=$(psql_q -c "SELECT coalesce(string_agg('DROP INDEX ' || indexrelid::regclass::text, '; '), '')
  FROM pg_index WHERE indrelid = 'podium_conversations'::regclass
  AND indexrelid::regclass::text LIKE 'podium_conversations_hnsw_%'")
declare -A drop=(
  [global_hnsw]='DROP INDEX podium_conversations_embedding_hnsw;'
  [contact_hnsw]="${contact_hnsw:+$contact_hnsw;}"
  [term_impact]='DROP INDEX podium_conversations_terms_term_impact;'
  [contact_term_impact]='DROP INDEX podium_conversations_terms_contact_term_impact;'
  [terms_pkey]='ALTER TABLE podium_conversations_terms DROP CONSTRAINT podium_conversations_terms_pkey;'
)

insert_ms() { # $1: SQL run before the insert, inside the transaction
  psql_q <<SQL | sed -n 's/^Execution Time: \([0-9.]*\) ms$/\1/p'
BEGIN;
$1
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) WITH rows AS (
  INSERT INTO podium_conversations (id, content, embedding, term_count, contact_uid,
    location_uid, conversation_uid, channel, occurred_at)
  SELECT m.new, s.content, s.embedding, s.term_count, s.contact_uid, s.location_uid,
    s.conversation_uid, s.channel, s.occurred_at
  FROM insert_cost_src s JOIN insert_cost_map m ON m.old = s.id
  ON CONFLICT (id) DO NOTHING RETURNING id),
postings AS (
  INSERT INTO podium_conversations_terms (doc_id, term, tf, doc_len, impact, contact_uid)
  SELECT m.new, t.term, t.tf, t.doc_len, t.impact, t.contact_uid
  FROM insert_cost_terms t JOIN insert_cost_map m ON m.old = t.doc_id)
SELECT count(*) FROM rows;
ROLLBACK;
SQL
}

for variant in none global_hnsw contact_hnsw term_impact contact_term_impact terms_pkey all; do
  sql=''
  for index in "${!drop[@]}"; do
    [[ $variant == all || $variant == "$index" ]] || sql+="${drop[$index]}"
  done
  best=''
  for _ in 1 2 3; do
    ms=$(insert_ms "$sql")
    best=$(awk -v a="$ms" -v b="$best" 'BEGIN { print (b == "" || a < b) ? a : b }')
  done
  printf '{"bench":"insert-cost","store_windows":%s,"windows":%s,"postings":%s,"kept":"%s","min_ms":%s}\n' \
    "$windows" "$n" "$postings" "$variant" "$best"
done
