import { QueryFailedError } from 'typeorm';

import { classifyDatabaseError, DatabaseTimeoutError, DatabaseUnavailableError } from './errors';

const failed = (driverError: Error) => new QueryFailedError('SELECT 1', [], driverError);

describe('classifyDatabaseError', () => {
  it('maps a server that cannot be reached and a cancelled statement', () => {
    expect(classifyDatabaseError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toEqual(
      new DatabaseUnavailableError('ECONNREFUSED'),
    );
    expect(classifyDatabaseError(Object.assign(new Error('x'), { code: '57014' }))).toBeInstanceOf(
      DatabaseTimeoutError,
    );
  });

  it('unwraps what TypeORM wrapped: the same domain error as through the SQL port', () => {
    const timeout = new DatabaseTimeoutError();
    expect(classifyDatabaseError(failed(timeout))).toBe(timeout);
    expect(classifyDatabaseError(failed(Object.assign(new Error('x'), { code: '57P01' })))).toEqual(
      new DatabaseUnavailableError('SQLSTATE 57P01'),
    );
    expect(
      classifyDatabaseError(failed(new Error('Connection terminated unexpectedly'))),
    ).toBeInstanceOf(DatabaseUnavailableError);
  });

  it("leaves an error that is not about reachability as it was (TypeORM's own, for TypeORM)", () => {
    const unique = failed(Object.assign(new Error('duplicate key'), { code: '23505' }));
    expect(classifyDatabaseError(unique)).toBe(unique);
    const plain = new Error('syntax');
    expect(classifyDatabaseError(plain)).toBe(plain);
  });
});
