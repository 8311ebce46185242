import { Command, InvalidArgumentError } from 'commander';

import { evalCommand } from './eval.command';
import { registerHistoryCommands } from './history.commands';
import { ingestCommand } from './ingest.command';
import { registerKeyCommands } from './keys.command';
import { registerQueryCommands } from './query.commands';

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

const program = new Command('context-bridge').description(
  'Context Bridge CLI: the service’s own code, without the HTTP server. Prints JSON.',
);

program
  .command('ingest')
  .description('ingest a JSON array or NDJSON file of conversation messages or KB topics')
  .argument('<kind>', 'conversations | kb', (value) => {
    if (value !== 'conversations' && value !== 'kb') {
      throw new InvalidArgumentError('must be "conversations" or "kb"');
    }
    return value;
  })
  .argument('<file>', 'path to the file')
  .action(async (kind: 'conversations' | 'kb', file: string) => {
    const report = await ingestCommand(kind, file);
    print(report);
    process.exitCode = report.failed.length > 0 ? 2 : 0;
  });

const positiveInt = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    throw new InvalidArgumentError('must be a positive integer');
  }
  return n;
};

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

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`error: ${(error as Error).message}\n`);
  process.exit(1);
});
