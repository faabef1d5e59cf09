import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '~/config/env.server';
import { getT } from '~/modules/i18n/index.server';
import type { Locale } from '~/modules/i18n/translate';
import { type Block, parseMarkdown } from './markdown';
import type { LegalPage } from './pages';

/** The templates Kopi ships, bundled into the server: content/legal/{locale}/{page}.md. */
const templates = import.meta.glob<string>('/content/legal/*/*.md', { query: '?raw', import: 'default', eager: true });

export type LegalDocument = { title: string; blocks: Block[]; fromOwner: boolean };

/**
 * A legal page in a language: the owner's file `{LEGAL_DIR}/{locale}/{page}.md` when there is one, else
 * Kopi's template. `{{legalName}}`, `{{address}}`, `{{taxId}}`, `{{email}}`, `{{phone}}`, `{{shopUrl}}` and the retention periods (`{{taxYears}}` …)
 * are filled in from the configuration (SHOP_LEGAL_NAME …) in both; a detail that is not configured
 * reads "(not set: SHOP_…)", so a missing one is visible rather than invented.
 */
export async function legalDocument(config: Config, page: LegalPage, locale: Locale): Promise<LegalDocument> {
  const own = await readOwnerFile(path.join(config.legalDir, locale, `${page}.md`));
  const source = own ?? templates[`/content/legal/${locale}/${page}.md`] ?? '';
  const [first, ...rest] = parseMarkdown(fillIn(source, config, locale));
  const fromOwner = own !== null;
  if (first?.kind === 'heading' && first.level === 1) return { title: first.text, blocks: rest, fromOwner };
  return { title: getT(locale)(`legal.pages.${page}`), blocks: first ? [first, ...rest] : [], fromOwner };
}

async function readOwnerFile(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw error;
  }
}

function fillIn(source: string, config: Config, locale: Locale): string {
  const t = getT(locale);
  const { seller } = config;
  const values: Record<string, [string | undefined, string]> = {
    legalName: [seller.legalName, 'SHOP_LEGAL_NAME'],
    address: [seller.address, 'SHOP_ADDRESS'],
    taxId: [seller.taxId, 'SHOP_TAX_ID'],
    email: [seller.email, 'SHOP_EMAIL'],
    phone: [seller.phone, 'SHOP_PHONE'],
    shopUrl: [config.publicUrl.origin, 'PUBLIC_URL'],
  };
  const unset = (name: string) => name in values && values[name]![0] === undefined;
  // A link to a detail that is not configured (mailto:{{email}}) keeps only its words.
  const linked = source.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (link, label: string, href: string) =>
    [...href.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].some((m) => unset(m[1]!)) ? label : link,
  );
  // The retention periods as configured (RETENTION_*), always set.
  const periods: Record<string, number> = { ...config.retention };
  return linked.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => {
    if (name in periods) return String(periods[name]);
    const entry = values[name];
    if (!entry) return whole;
    return entry[0] ?? t('legal.notSet', { variable: entry[1] });
  });
}
