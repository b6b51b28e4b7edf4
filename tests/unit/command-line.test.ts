// The commands read their arguments through one function (scripts/lib/command-line.ts): anything it
// does not know stops the command before it does its default. Each command's own test runs it with
// the options it takes; publish's also with a mistyped one (tests/api/publisher.test.ts).
import { describe, expect, it } from 'vitest';
import { readCommandLine } from '../../scripts/lib/command-line.ts';

const restore = {
  usage: 'npm run db:restore -- <backup file> [--replace]',
  needs: ['a backup file'],
  flags: ['replace'],
  refusal: 'Nothing was restored',
} as const;
const backup = {
  usage: 'npm run db:backup [-- <file>]',
  takes: ['a file'],
  refusal: 'Nothing was backed up',
};
const importing = {
  usage: 'npm run items:import -- <file or http(s) URL> [--no-publish]',
  needs: ['a file or an http(s) URL'],
  flags: ['no-publish'],
  refusal: 'Nothing was imported',
} as const;

describe('a command line', () => {
  it('gives the arguments in order and each option as on or off', () => {
    expect(readCommandLine(restore, ['nightly.db', '--replace'])).toEqual({
      ok: true,
      flags: { replace: true },
      args: ['nightly.db'],
    });
    expect(readCommandLine(restore, ['--replace', 'nightly.db'])).toMatchObject({ flags: { replace: true } });
    expect(readCommandLine(restore, ['nightly.db'])).toMatchObject({ flags: { replace: false } });
    expect(readCommandLine(importing, ['feed.json', '--no-publish'])).toMatchObject({
      flags: { 'no-publish': true },
      args: ['feed.json'],
    });
    expect(readCommandLine(backup, [])).toEqual({ ok: true, flags: {}, args: [] });
    expect(readCommandLine(backup, ['backups/monday.db'])).toMatchObject({ args: ['backups/monday.db'] });
  });

  it('refuses an option the command does not take, naming every one, before the default is done', () => {
    expect(readCommandLine(importing, ['feed.json', '--no-pubish'])).toEqual({
      ok: false,
      error: 'npm run items:import does not take --no-pubish.',
    });
    expect(readCommandLine(backup, ['--help'])).toEqual({
      ok: false,
      error: 'npm run db:backup does not take --help.',
    });
    expect(readCommandLine(restore, ['-r', 'nightly.db', '--force'])).toEqual({
      ok: false,
      error: 'npm run db:restore does not take -r --force.',
    });
    // An option given a value it cannot take, and a second `--`, are refused too.
    expect(readCommandLine(restore, ['nightly.db', '--replace=no'])).toEqual({
      ok: false,
      error: '--replace takes no value (it was given "no").',
    });
    expect(readCommandLine(restore, ['--', 'nightly.db'])).toMatchObject({ ok: false });
  });

  it('says which argument is missing, or which are one too many', () => {
    expect(readCommandLine(restore, ['--replace'])).toEqual({
      ok: false,
      error: 'npm run db:restore needs a backup file.',
    });
    expect(readCommandLine(backup, ['a.db', 'b.db'])).toEqual({
      ok: false,
      error: 'npm run db:backup takes at most 1 argument; it was also given b.db.',
    });
    expect(
      readCommandLine({ usage: 'npm run publish', flags: ['here'], refusal: 'Nothing was published' }, [
        'now',
      ]),
    ).toEqual({ ok: false, error: 'npm run publish takes no arguments; it was also given now.' });
  });
});
