import { ConfigError, loadConfig, prepareDataDir } from '~/config/env.server';
import { migrateToLatest, openDatabase } from '~/db/database.server';
import { seedDemoCatalogue } from '~/db/seed.server';
import { countProducts } from '~/modules/catalog/index.server';
import { createStorage } from '~/modules/storage/index.server';

const usage = `Usage: npm run kopi -- <command>

Commands:
  migrate    apply the database migrations
  seed       load the demo catalogue into an empty database
  help       show this text`;

type Output = { log: (line: string) => void; error: (line: string) => void };

/** Runs one command; returns the process exit code. */
export async function run(argv: string[], out: Output = console): Promise<number> {
  const [command] = argv;
  if (!command || command === 'help' || command === '--help') {
    out.log(usage);
    return command ? 0 : 1;
  }
  if (!['migrate', 'seed'].includes(command)) {
    out.error(`Unknown command "${command}".\n\n${usage}`);
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
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database.db);
    if (command === 'migrate') {
      out.log(`Database is up to date (${database.kind}).`);
    } else {
      const added = await seedDemoCatalogue(database.db, createStorage(config), { info: () => {} });
      out.log(
        added
          ? `Added ${added} demo products.`
          : `The catalogue already has ${await countProducts(database.db)} products; nothing was added.`,
      );
    }
    return 0;
  } finally {
    await database.close();
  }
}
