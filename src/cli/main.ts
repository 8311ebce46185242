import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Command, InvalidArgumentError } from 'commander';

import { projectRoot } from '../common/client-bundle';
import { registerReembedCommand } from '../reembed/reembed.command';
import { registerContactsCommands } from './contacts.command';
import { evalCommand } from './eval.command';
import { registerHistoryCommands } from './history.commands';
import { ingestCommand } from './ingest.command';
import { registerKeyCommands } from './keys.command';
import { registerMigrateCommand } from './migrate.command';
import { registerQueryCommands } from './query.commands';

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

/** The installed package's version (the same package.json in a checkout and an image). */
const version = (
  JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string }
).version;

const program = new Command('context-bridge')
  .description(
    'Context Bridge CLI: the service’s own code, without the HTTP server and its background ' +
      'work (webhook worker, schedulers, Podium token refresh). Prints JSON. Query commands ' +
      'take --url to ask a running server instead.',
  )
  .version(version, '-V, --version', 'print the version');

const positiveInt = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    throw new InvalidArgumentError('must be a positive integer');
  }
  return n;
};

program
  .command('ingest')
  .description(
    'ingest a JSON array or NDJSON file of conversation messages or KB topics; NDJSON is ' +
      'streamed in batches and resumes after an interruption from a checkpoint file',
  )
  .argument('<kind>', 'conversations | kb', (value) => {
    if (value !== 'conversations' && value !== 'kb') {
      throw new InvalidArgumentError('must be "conversations" or "kb"');
    }
    return value;
  })
  .argument('<file>', 'path to the file')
  .option('--batch <n>', 'records per committed batch (NDJSON)', positiveInt, 2000)
  .option('--state <file>', 'checkpoint file (default: <file>.ingest-state.json)')
  .option('--restart', 'ignore an existing checkpoint and start from the top')
  .action(
    async (
      kind: 'conversations' | 'kb',
      file: string,
      o: { batch: number; state?: string; restart?: boolean },
    ) => {
      const report = await ingestCommand(kind, file, o);
      print(report);
      process.exitCode = report.failed_total > 0 ? 2 : 0;
    },
  );

program
  .command('eval')
  .description(
    'score retrieval on a BEIR set (corpus.jsonl, queries.jsonl, qrels.tsv) in a throwaway ' +
      'store: dense, lexical, hybrid pool and the configured reranker',
  )
  .argument('<dir>', 'the BEIR folder')
  .option('--corpus <file>', 'corpus file, relative to <dir>', 'corpus.jsonl')
  .option('--queries <file>', 'queries file, relative to <dir>', 'queries.jsonl')
  .option('--qrels <file>', 'qrels TSV, relative to <dir> (default qrels.tsv or qrels/test.tsv)')
  .option('--k <n>', 'cut-off of hit@k and recall@k', positiveInt, 5)
  .option('--pool-k <n>', 'candidates per list and pool size', positiveInt, 20)
  .action(
    async (
      dir: string,
      o: { corpus: string; queries: string; qrels?: string; k: number; poolK: number },
    ) => {
      print(await evalCommand(dir, o));
    },
  );

registerQueryCommands(program);
registerHistoryCommands(program);
registerKeyCommands(program);
registerMigrateCommand(program);
registerContactsCommands(program);
registerReembedCommand(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`error: ${(error as Error).message}\n`);
  process.exit(1);
});
