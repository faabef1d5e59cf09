import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig, prepareDataDir } from '~/config/env.server';
import { type DB, migrateToLatest, openDatabase } from '~/db/database.server';
import { BackupError, backupSqlite, restoreSqlite } from '~/db/backup.server';
import { seedDemoCatalogue } from '~/demo/seed.server';
import { authLimits, createAdmin, parseLogInForm, setAdmin } from '~/modules/accounts/index.server';
import { countProducts } from '~/modules/catalog/index.server';
import { getT } from '~/modules/i18n/index.server';
import { createStorage } from '~/modules/storage/index.server';

const usage = `Usage: npm run kopi -- <command>

Commands:
  migrate                                       apply the database migrations
  seed                                          load the demo catalogue into an empty database
  create-admin --email E --password P [--name N] create an admin account, or make an existing
                                                account an admin and set its password
  grant-admin --email E                         make an existing account an admin
  revoke-admin --email E                        take the admin role away from an account
  backup --to DIR                               copy a running SQLite shop (database and pictures)
                                                into DIR/kopi-backup-<time>/
  restore --from DIR                            put a backup in place (stop the shop first); what it
                                                replaces is kept beside it
  help                                          show this text`;

type Output = { log: (line: string) => void; error: (line: string) => void };

/** What a command needs, checked before the database is opened. */
type Work = (ctx: { db: DB; kind: string; config: Config }) => Promise<{ code: number; message: string }>;
/** A command that works on the files rather than through an open database (backup, restore). */
type Standalone = (config: Config) => Promise<{ code: number; message: string }>;
type Task = { error: string } | { work: Work } | { standalone: Standalone };

const commands: Record<string, (args: string[]) => Task> = {
  migrate: (args) => noArguments('migrate', args, async ({ kind }) => ({ code: 0, message: `Database is up to date (${kind}).` })),
  seed: (args) =>
    noArguments('seed', args, async ({ db, config }) => {
      const added = await seedDemoCatalogue(db, createStorage(config), { info: () => {} });
      return {
        code: 0,
        message: added
          ? `Added ${added} demo products.`
          : `The catalogue already has ${await countProducts(db)} products; nothing was added.`,
      };
    }),
  'create-admin': (args) => {
    const parsed = options('create-admin', args, ['email', 'password', 'name']);
    if ('error' in parsed) return parsed;
    const { email, password, name } = parsed.values;
    if (!email || !password) return { error: 'create-admin needs --email and --password.' };
    const problem = credentialProblem(email, password);
    if (problem) return { error: problem };
    if (name !== undefined && (!name.trim() || name.trim().length > authLimits.name)) {
      return { error: `--name must be 1 to ${authLimits.name} characters.` };
    }
    return {
      work: async ({ db }) => {
        const { created } = await createAdmin(db, { email, password, name });
        const who = email.trim().toLowerCase();
        return {
          code: 0,
          message: created
            ? `Created the admin account ${who}.`
            : `${who} already had an account: it is now an admin and has the new password (its sessions were ended).`,
        };
      },
    };
  },
  backup: (args) => {
    const parsed = options('backup', args, ['to']);
    if ('error' in parsed) return parsed;
    const { to } = parsed.values;
    if (!to) return { error: 'backup needs --to DIR.' };
    return {
      standalone: sqliteOnly('backup', async (file, config) => {
        const uploadsDir = config.s3 ? null : path.join(config.dataDir, 'uploads');
        const result = await backupSqlite({ file, uploadsDir, to: path.resolve(to) });
        const size = `${(result.databaseBytes / 1024 / 1024).toFixed(1)} MB`;
        return `Backed up the database (${size})${uploadsDir ? ` and ${result.pictures} picture files` : ''} to ${result.dir}${uploadsDir ? '' : ' (the pictures are in the S3 bucket)'}.`;
      }),
    };
  },
  restore: (args) => {
    const parsed = options('restore', args, ['from']);
    if ('error' in parsed) return parsed;
    const { from } = parsed.values;
    if (!from) return { error: 'restore needs --from DIR (a kopi-backup-<time> directory).' };
    return {
      standalone: sqliteOnly('restore', async (file, config) => {
        const { keptAs } = restoreSqlite({ from: path.resolve(from), file, uploadsDir: config.s3 ? null : path.join(config.dataDir, 'uploads') });
        return `Restored ${path.resolve(from)}.${keptAs ? ` The database it replaced is kept as ${keptAs}.` : ''} Start the shop again.`;
      }),
    };
  },
  'grant-admin': (args) => roleChange('grant-admin', args, true),
  'revoke-admin': (args) => roleChange('revoke-admin', args, false),
};

/** Runs one command; returns the process exit code (0 done, 1 refused or failed). */
export async function run(argv: string[], out: Output = console): Promise<number> {
  const [command, ...args] = argv;
  if (!command || command === 'help' || command === '--help') {
    out.log(usage);
    return command ? 0 : 1;
  }
  if (!Object.hasOwn(commands, command)) {
    out.error(`Unknown command "${command}".\n\n${usage}`);
    return 1;
  }
  const task = commands[command](args);
  if ('error' in task) {
    out.error(`${task.error}\n\n${usage}`);
    return 1;
  }
  let config;
  try {
    config = prepareDataDir(loadConfig());
  } catch (error) {
    if (error instanceof ConfigError) {
      out.error(error.message);
      return 1;
    }
    throw error;
  }
  if ('standalone' in task) {
    const { code, message } = await task.standalone(config);
    (code === 0 ? out.log : out.error)(message);
    return code;
  }
  // A shop starting for the first time holds the database while it seeds the demo: the command waits its turn.
  const database = openDatabase(config.database, { busyTimeoutMs: 120_000 });
  try {
    await migrateToLatest(database.db);
    const { code, message } = await task.work({ db: database.db, kind: database.kind, config });
    (code === 0 ? out.log : out.error)(message);
    return code;
  } finally {
    await database.close();
  }
}

function roleChange(command: string, args: string[], isAdmin: boolean): Task {
  const parsed = options(command, args, ['email']);
  if ('error' in parsed) return parsed;
  const { email } = parsed.values;
  if (!email) return { error: `${command} needs --email.` };
  const problem = credentialProblem(email, null);
  if (problem) return { error: problem };
  const who = email.trim().toLowerCase();
  return {
    work: async ({ db }) =>
      (await setAdmin(db, email, isAdmin))
        ? { code: 0, message: isAdmin ? `${who} is now an admin.` : `${who} is no longer an admin.` }
        : {
            code: 1,
            message: `No account has the email ${who}.${isAdmin ? ' To create one: npm run kopi -- create-admin --email E --password P' : ''}`,
          },
  };
}

/** Backups of PostgreSQL belong to PostgreSQL's own tools; BackupError's message is the whole answer. */
function sqliteOnly(command: string, work: (file: string, config: Config) => Promise<string>): Standalone {
  return async (config) => {
    if (config.database.kind !== 'sqlite') {
      return { code: 1, message: `kopi ${command} is for SQLite. With PostgreSQL use pg_dump and pg_restore, and copy the bucket (README, "Backups").` };
    }
    try {
      return { code: 0, message: await work(config.database.file, config) };
    } catch (error) {
      if (error instanceof BackupError) return { code: 1, message: error.message };
      throw error;
    }
  };
}

function noArguments(command: string, args: string[], work: Work): Task {
  return args.length > 0 ? { error: `${command} takes no arguments.` } : { work };
}

/** --name value / --name=value options. Errors never repeat what was typed (it may be a password). */
function options<K extends string>(
  command: string,
  args: string[],
  names: K[],
): { values: Partial<Record<K, string>> } | { error: string } {
  try {
    const { values } = parseArgs({
      args,
      options: Object.fromEntries(names.map((n) => [n, { type: 'string' as const }])),
      strict: true,
      allowPositionals: false,
    });
    return { values: values as Partial<Record<K, string>> };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      return { error: `${command} accepts only ${names.map((n) => `--${n}`).join(', ')}.` };
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return { error: `Each of ${names.map((n) => `--${n}`).join(', ')} needs a value.` };
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return { error: `${command} got an argument it does not understand.` };
    throw error;
  }
}

/** The shop's own rules for an email (and a password): the messages of the sign-up form, in English. */
function credentialProblem(email: string, password: string | null): string | null {
  const result = parseLogInForm({ email, password: password ?? 'x'.repeat(authLimits.password) });
  if (result.ok) return null;
  const t = getT('en');
  return [result.fieldErrors.email, result.fieldErrors.password]
    .filter((key): key is string => Boolean(key))
    .map((key) => `${t(key)}.`)
    .join(' ');
}
