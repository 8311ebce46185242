import { DependencyError, safeErrorText } from './errors';

describe('safeErrorText', () => {
  it('keeps our own errors’ words', () => {
    expect(safeErrorText(new DependencyError('db_down', 'The database is unreachable.'))).toBe(
      'DependencyError: The database is unreachable.',
    );
  });

  it('gives an unknown error’s class and code only, never its message', () => {
    const pg = Object.assign(new Error('duplicate key (contact_uid)=(jane.doe@example.com)'), {
      code: '23505',
    });
    expect(safeErrorText(pg)).toBe('Error (23505)');
    expect(safeErrorText(new SyntaxError('Unexpected token in "+14155550134"'))).toBe(
      'SyntaxError',
    );
  });

  it('copes with whatever was thrown', () => {
    for (const thrown of [undefined, null, 'jane.doe@example.com', 42, { name: 7 }]) {
      expect(safeErrorText(thrown)).toBe('Error');
    }
  });
});
