/**
 * `kopi backup` and `kopi restore` for a shop on SQLite: a consistent copy of the database while the shop
 * runs (SQLite's online backup: every page from one snapshot, whatever the shop writes meanwhile) and the
 * uploaded pictures beside it. PostgreSQL shops use pg_dump and their bucket's own copying (README).
 *
 * Pictures are copied twice, before and after the database: a picture deleted while the backup runs is in
 * the first pass, one added before the snapshot in the second, so every picture the copied database names
 * is in the backup.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync, backup } from 'node:sqlite';

export type BackupResult = { dir: string; databaseBytes: number; pictures: number };

const DATABASE_FILE = 'kopi.db';
const UPLOADS_DIR = 'uploads';

/** Writes `<to>/kopi-backup-<UTC time>/` with `kopi.db` and `uploads/` (when the shop keeps pictures on disk). */
export async function backupSqlite({ file, uploadsDir, to, now = new Date() }: { file: string; uploadsDir: string | null; to: string; now?: Date }): Promise<BackupResult> {
  if (!fs.existsSync(file)) throw new BackupError(`There is no database at ${file}.`);
  const dir = path.join(to, `kopi-backup-${now.toISOString().replace(/[:.]/g, '-')}`);
  if (fs.existsSync(dir)) throw new BackupError(`${dir} exists already.`);
  fs.mkdirSync(dir, { recursive: true });
  const pictures = uploadsDir ? path.join(dir, UPLOADS_DIR) : null;
  if (uploadsDir && pictures) copyNew(uploadsDir, pictures);

  const source = new DatabaseSync(file, { readOnly: true });
  try {
    // All pages in one step: one read snapshot, so writes made meanwhile neither tear nor restart the copy.
    await backup(source, path.join(dir, DATABASE_FILE), { rate: 2_000_000_000 });
  } finally {
    source.close();
  }
  const copied = new DatabaseSync(path.join(dir, DATABASE_FILE));
  try {
    const check = copied.prepare('pragma integrity_check').get() as { integrity_check: string };
    if (check.integrity_check !== 'ok') throw new BackupError(`The copy failed SQLite's integrity check: ${check.integrity_check}`);
  } finally {
    copied.close();
  }
  if (uploadsDir && pictures) copyNew(uploadsDir, pictures);
  return { dir, databaseBytes: fs.statSync(path.join(dir, DATABASE_FILE)).size, pictures: pictures ? countFiles(pictures) : 0 };
}

/**
 * Puts a backup in place of the shop's database (and pictures, when the backup has them). The shop must be
 * stopped. What was there is kept beside it as `kopi.db.before-restore-<time>` (and `uploads.before-…`).
 */
export function restoreSqlite({ from, file, uploadsDir, now = new Date() }: { from: string; file: string; uploadsDir: string | null; now?: Date }): { keptAs: string | null } {
  const backupFile = path.join(from, DATABASE_FILE);
  if (!fs.existsSync(backupFile)) throw new BackupError(`${from} is not a Kopi backup (it has no ${DATABASE_FILE}).`);
  const probe = new DatabaseSync(backupFile, { readOnly: true });
  try {
    const check = probe.prepare('pragma integrity_check').get() as { integrity_check: string };
    if (check.integrity_check !== 'ok') throw new BackupError(`The backup's database is damaged: ${check.integrity_check}`);
  } finally {
    probe.close();
  }
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let keptAs: string | null = null;
  if (fs.existsSync(file)) {
    // Fold the write-ahead log in first, so the kept copy is whole on its own.
    const current = new DatabaseSync(file);
    try {
      current.exec('pragma wal_checkpoint(truncate)');
    } finally {
      current.close();
    }
    keptAs = `${file}.before-restore-${stamp}`;
    fs.renameSync(file, keptAs);
  }
  for (const suffix of ['-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
  fs.copyFileSync(backupFile, file);
  const pictures = path.join(from, UPLOADS_DIR);
  if (uploadsDir && fs.existsSync(pictures)) {
    if (fs.existsSync(uploadsDir)) fs.renameSync(uploadsDir, `${uploadsDir}.before-restore-${stamp}`);
    fs.cpSync(pictures, uploadsDir, { recursive: true });
  }
  return { keptAs };
}

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

/** Copies the files of `from` that `to` does not have yet (pictures never change once stored). */
function copyNew(from: string, to: string): void {
  if (!fs.existsSync(from)) return;
  for (const entry of fs.readdirSync(from, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const source = path.join(entry.parentPath, entry.name);
    const target = path.join(to, path.relative(from, source));
    if (fs.existsSync(target)) continue;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    try {
      fs.copyFileSync(source, target);
    } catch (error) {
      // Deleted between listing and copying: the other pass has it, or nothing names it any more.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

function countFiles(dir: string): number {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).length;
}
