import { describeMigrationRun } from './migrations';

describe('describeMigrationRun', () => {
  it('names each migration applied, in order', () => {
    expect(
      describeMigrationRun({
        applied: ['CreateUsers1700000000000', 'AddUsersDeletedAt1763746000000'],
        known: 42,
      }),
    ).toEqual([
      'applied migration CreateUsers1700000000000',
      'applied migration AddUsersDeletedAt1763746000000',
    ]);
  });

  it('says the schema is up to date, with the count of migrations, when none was pending', () => {
    expect(describeMigrationRun({ applied: [], known: 42 })).toEqual([
      'database schema up to date (42 migrations)',
    ]);
  });
});
