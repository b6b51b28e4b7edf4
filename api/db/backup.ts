import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

/**
 * A consistent online copy of the database through SQLite's backup API: safe while the server
 * is writing (WAL), unlike copying the file.
 */
export async function backupDatabase(sourceFile: string, destFile: string): Promise<{ pages: number }> {
  fs.mkdirSync(path.dirname(path.resolve(destFile)), { recursive: true });
  const source = new SQLite(sourceFile, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    const { totalPages } = await source.backup(destFile);
    return { pages: totalPages };
  } finally {
    source.close();
  }
}
