#!/usr/bin/env bash
# Where a window insert's time goes, index by index, on a store bench:scale grew: N windows
# sampled from the store (default 2,133) are inserted again under new ids with their
# postings, in one statement shaped as the service's (which writes ~110 windows a statement),
# inside a transaction that is rolled back; each variant drops every vector and posting index
# but one first. Prints one JSON line per variant: the fastest of three runs (ms).
#   DATABASE_URL=postgres://… npm run bench:insert-cost
# Needs bash ≥ 4 and psql. Never point it at a database that serves: DROP INDEX, even rolled
# back, locks the tables. A rollback leaves the inserted index entries behind until VACUUM,
# so on a store under BENCH_INSERT_VACUUM_BELOW windows (200,000) each run is followed by a
# VACUUM; on a larger one the 21 runs leave 45k dead entries (5% at 1M). Run it quiet:
# autovacuum or anything else on 2 cores distorts the figures.
set -euo pipefail
url=${DATABASE_URL:?set DATABASE_URL to a store bench:scale grew}
n=${BENCH_INSERT_WINDOWS:-2133}
vacuum_below=${BENCH_INSERT_VACUUM_BELOW:-200000}
[[ $n =~ ^[0-9]+$ && $vacuum_below =~ ^[0-9]+$ ]] || { echo 'counts must be integers' >&2; exit 2; }
export PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning"
psql_q() { psql "$url" -v ON_ERROR_STOP=1 -qAt "$@"; }

trap 'psql_q -c "DROP TABLE IF EXISTS insert_cost_src, insert_cost_terms, insert_cost_map"' EXIT
psql_q <<SQL
DROP TABLE IF EXISTS insert_cost_src, insert_cost_terms, insert_cost_map;
CREATE TABLE insert_cost_src AS
  SELECT * FROM podium_conversations ORDER BY md5(id::text) LIMIT $n;
CREATE TABLE insert_cost_map AS SELECT id AS old, gen_random_uuid() AS new FROM insert_cost_src;
CREATE TABLE insert_cost_terms AS
  SELECT t.* FROM podium_conversations_terms t JOIN insert_cost_src s ON s.id = t.doc_id;
SQL

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
    [[ -n $ms ]] || { echo "no Execution Time for variant $variant" >&2; exit 1; }
    if (( windows < vacuum_below )); then
      psql_q -c 'VACUUM podium_conversations, podium_conversations_terms'
    fi
    best=$(awk -v a="$ms" -v b="$best" 'BEGIN { print (b == "" || a < b) ? a : b }')
  done
  printf '{"bench":"insert-cost","store_windows":%s,"windows":%s,"postings":%s,"kept":"%s","min_ms":%s}\n' \
    "$windows" "$n" "$postings" "$variant" "$best"
done
