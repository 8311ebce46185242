import { Command, InvalidArgumentError } from 'commander';

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

registerQueryCommands(program);
registerHistoryCommands(program);
registerKeyCommands(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`error: ${(error as Error).message}\n`);
  process.exit(1);
});
