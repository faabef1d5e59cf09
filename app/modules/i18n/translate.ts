/**
 * A small translator over i18next's JSON catalogue format: nested keys ("home.hero.title"), `{{name}}`
 * interpolation, and plural keys chosen with Intl.PluralRules (`key_one`, `key_few`, `key_many`,
 * `key_other`), the same rules i18next applies. It runs identically on the server and in the browser
 * and weighs under 1 kB, which keeps the first visit inside the JavaScript budget (docs/decisions/0002).
 */
import { formatNumber } from '~/lib/format';

export const locales = ['en', 'pl'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'en';

export type Messages = { [key: string]: string | Messages };
export type Vars = Record<string, string | number>;
export type T = (key: string, vars?: Vars) => string;

export const isLocale = (value: unknown): value is Locale => value === 'en' || value === 'pl';

const pluralRules = new Map<string, Intl.PluralRules>();
function pluralCategory(locale: string, count: number) {
  let rules = pluralRules.get(locale);
  if (!rules) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)));
  return rules.select(count);
}

function lookup(messages: Messages, key: string): string | undefined {
  let node: string | Messages | undefined = messages;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export function createT(locale: Locale, messages: Messages, fallback?: Messages): T {
  const find = (key: string) => lookup(messages, key) ?? (fallback ? lookup(fallback, key) : undefined);
  return (key, vars) => {
    let text: string | undefined;
    if (vars && typeof vars.count === 'number') {
      text = find(`${key}_${pluralCategory(locale, vars.count)}`) ?? find(`${key}_other`);
    }
    text ??= find(key);
    if (text === undefined) return key;
    if (!vars) return text;
    return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) =>
      name in vars ? (typeof vars[name] === 'number' ? formatNumber(vars[name] as number, locale) : String(vars[name])) : match,
    );
  };
}

/**
 * One message tree from per-namespace bundles: `common` sits at the root ("nav.home"), every other
 * namespace under its name ("cart.title"). Deep-merged, so a namespace may extend a common branch.
 */
export function mergeBundles(bundles: Array<Record<string, Messages> | undefined>): Messages {
  const tree: Messages = {};
  for (const bundle of bundles) {
    if (!bundle) continue;
    for (const [name, messages] of Object.entries(bundle)) {
      deepAssign(tree, name === 'common' ? messages : { [name]: messages });
    }
  }
  return tree;
}

function deepAssign(target: Messages, source: Messages) {
  for (const [key, value] of Object.entries(source)) {
    const current = target[key];
    if (typeof value === 'object' && current && typeof current === 'object') deepAssign(current, value);
    else target[key] = typeof value === 'object' ? deepAssign({}, value) : value;
  }
  return target;
}
