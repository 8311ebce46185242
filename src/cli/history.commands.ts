import { type Command } from 'commander';

import { ConversationMemory } from '../conversations/conversation-memory.service';
import { HistoryRetention } from '../conversations/history-retention';
import { withAppContext } from './cli-context';

const print = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
};

/** Conversation memory maintenance: the upgrade's reindex, forgetting, a retention sweep. */
export function registerHistoryCommands(program: Command): void {
  program
    .command('reindex')
    .description(
      'rebuild the windows of every conversation from its stored messages (after an upgrade); windows of those conversations not derived from messages are removed',
    )
    .action(async () =>
      print(await withAppContext((ctx) => ctx.get(ConversationMemory).reindex())),
    );

  program
    .command('forget')
    .description(
      "forget a contact's history (DELETE /contacts/{uid}/history): messages, windows, cache; a tombstone keeps them from coming back",
    )
    .argument('<contact_uid>')
    .option('--location <uid...>', 'only in these locations (default: every location)')
    .action(async (contactUid: string, o: { location?: string[] }) =>
      print(
        await withAppContext(async (ctx) => ({
          contact_uid: contactUid,
          // The CLI process ends after the command: it deletes everything before it answers.
          ...(await ctx
            .get(ConversationMemory)
            .forgetContact(contactUid, o.location, new Date(), Infinity)),
        })),
      ),
    );

  program
    .command('purge-history')
    .description('run one HISTORY_RETENTION_DAYS sweep now (a no-op when it is unset)')
    .action(async () => print(await withAppContext((ctx) => ctx.get(HistoryRetention).sweep())));
}
