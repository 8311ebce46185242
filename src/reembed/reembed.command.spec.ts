import { Command } from 'commander';

import {
  assertReembeddable,
  type ReembedCommandOptions,
  registerReembedCommand,
} from './reembed.command';
import { type ReembedReport } from './reembed-runner';

/** The CLI's parser with a recording action: nothing is opened or embedded. */
function parse(args: string[]): { runs: ReembedCommandOptions[]; parsing: Promise<unknown> } {
  const runs: ReembedCommandOptions[] = [];
  const program = new Command('context-bridge').exitOverride();
  program.configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
  registerReembedCommand(program, (o) => {
    runs.push(o);
    return Promise.resolve({} as ReembedReport);
  });
  program.commands.forEach((c) => c.exitOverride());
  const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const parsing = program
    .parseAsync(['node', 'cli', 'reembed', ...args])
    .finally(() => write.mockRestore());
  return { runs, parsing };
}

describe('context-bridge reembed: arguments', () => {
  it('takes a model, a dimension, a batch; progress on by default', async () => {
    const sut = parse(['--model', 'text-embedding-3-large', '--dimension', '3072']);
    await sut.parsing;
    expect(sut.runs).toEqual([
      {
        model: 'text-embedding-3-large',
        dimension: 3072,
        batch: 256,
        duty: 50,
        progress: true,
      },
    ]);
  });

  it.each([
    [['--dimension', '3072'], /required option '--model/],
    [['--model', ''], /1 to 200 printable characters/],
    [['--model', 'x'.repeat(201)], /1 to 200 printable characters/],
    [['--model', 'model with spaces'], /printable characters/],
    [['--model', 'm\u0000\n'], /printable characters/],
    [['--model', 'm', '--dimension', '4001'], /--dimension must be an integer from 1 to 4000/],
    [['--model', 'm', '--dimension', '0'], /--dimension must be an integer from 1 to 4000/],
    [['--model', 'm', '--dimension', '96abc'], /--dimension must be an integer/],
    [['--model', 'm', '--dimension', '1e3'], /--dimension must be an integer/],
    [['--model', 'm', '--batch', '2049'], /--batch must be an integer from 1 to 2048/],
    [['--model', 'm', '--batch', '-1'], /--batch must be an integer/],
    [['--model', 'm', '--batch', '1.5'], /--batch must be an integer/],
    [['--model', 'm', '--duty', '0'], /--duty must be an integer from 1 to 100/],
    [['--model', 'm', '--duty', '101'], /--duty must be an integer from 1 to 100/],
  ])('refuses %j before anything runs', async (args, message) => {
    const sut = parse(args);
    await expect(sut.parsing).rejects.toThrow(message);
    expect(sut.runs).toEqual([]);
  });

  it('refuses a Qdrant store with a stable code, and accepts pgvector', () => {
    let refusal: unknown;
    try {
      assertReembeddable('qdrant');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toMatchObject({ code: 'reembed_unsupported', httpStatus: 400 });
    expect(() => assertReembeddable('pgvector')).not.toThrow();
  });
});
