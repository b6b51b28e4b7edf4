// npm run db:restore -- <file> [--replace] — puts a db:backup back: into DATABASE_URL's database
// (created when missing) or the DATABASE_PATH file. A database that already holds data is refused
// unless --replace is given (stop every server using it first); a replaced SQLite file is kept
// beside it. README, "Backups".
import { BackupError, restoreDatabase } from '../api/db/backup.ts';
import { databaseLocation, describeDatabase } from '../api/db/database.ts';
import { commandLine } from './lib/command-line.ts';
import { loadEnv } from './lib/env.ts';

const { flags, args } = commandLine({
  usage: 'npm run db:restore -- <backup file> [--replace]',
  needs: ['a backup file'],
  flags: ['replace'],
  refusal: 'Nothing was restored',
});
const file = args[0]!;
const replace = flags.replace;
const env = loadEnv();
const location = databaseLocation(env);
try {
  const { replaced, kept } = await restoreDatabase(file, location, { replace });
  console.log(
    `Restored ${file} into ${describeDatabase(location)}${replaced ? ', replacing what was there' : ''}.` +
      (kept ? ` The replaced file is kept at ${kept}.` : '') +
      ' npm start migrates it to this version of Nestling if it is older.',
  );
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
