import { IntlMessageFormat } from 'intl-messageformat';
import { en } from './en.ts';
import type { OpsMessageKey } from './ops-en.ts';

// Every text the apps show goes through t(): one catalogue per language (en.ts, hi.ts, kn.ts), ICU
// messages ({count, plural, one {…} other {…}}) formatted by intl-messageformat in the chosen locale.
// English is bundled; the others are loaded the first time they are chosen (their own chunks), so
// an English first load carries no other language. An app with many texts of its own (the console,
// ops-en.ts) adds its catalogue at start: the other apps never download it. docs/web-apps.md "Languages".

export const LANGUAGES = ['en', 'hi', 'kn'] as const;
export type Language = (typeof LANGUAGES)[number];
/** A key of the shared catalogue (en.ts) or of an app's own (ops-en.ts); only the app that added a catalogue uses its keys. */
export type MessageKey = keyof typeof en | OpsMessageKey;
type Texts = Readonly<Record<string, string>>;

/** An app's own catalogue: its English texts, and how each other language of it loads. */
export interface Catalogue {
  en: Texts;
  load: Record<Exclude<Language, 'en'>, () => Promise<{ messages: Texts }>>;
}

/** Each language by its own name, as a picker lists them (never translated). */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', hi: 'हिन्दी', kn: 'ಕನ್ನಡ' };

/** The locale for Intl (numbers, money, dates): the language as written in India. */
export const LOCALES: Record<Language, string> = { en: 'en-IN', hi: 'hi-IN', kn: 'kn-IN' };

const catalogues: Catalogue[] = [{ en, load: { hi: () => import('./hi.ts'), kn: () => import('./kn.ts') } }];

/** The last language this browser showed, so a reload starts in it before the user's settings arrive. */
const STORED = 'ride-hailing.language';

let current: Language = 'en';
/** The catalogues' texts in the current language, and the objects they came from (to tell a real change). */
let parts: Texts[] = [en];
let messages: Texts = en;
let compiled = new Map<MessageKey, IntlMessageFormat>();
const listeners = new Set<(language: Language) => void>();

export const isLanguage = (value: unknown): value is Language => LANGUAGES.includes(value as Language);

/** The first of the browser's languages the apps speak (hi-IN counts as hi), else English. */
export function browserLanguage(preferred: readonly string[] = navigator.languages ?? [navigator.language]): Language {
  for (const tag of preferred) {
    const primary = tag.toLowerCase().split('-')[0];
    if (isLanguage(primary)) return primary;
  }
  return 'en';
}

export const language = (): Language => current;
export const locale = (): string => LOCALES[current];

/** The message in the current language, its {placeholders} filled and plurals chosen. */
export const t = (key: MessageKey, values?: Record<string, string | number>): string => String(formatOf(key).format(values));

function formatOf(key: MessageKey): IntlMessageFormat {
  let format = compiled.get(key);
  if (!format) {
    format = new IntlMessageFormat(messages[key], LOCALES[current]);
    compiled.set(key, format);
  }
  return format;
}

/** Adds an app's own catalogue at its start, before its language is set (startLanguage). */
export function addCatalogue(catalogue: Catalogue): void {
  catalogues.push(catalogue);
}

/**
 * Shows the app in `next` (its catalogues loaded first, so nothing renders half-translated); `<html lang>`
 * follows, and the browser remembers it for the next start. `remember: false` for the browser's own
 * language, which is found again anyway; `null` leaves what this browser remembers alone (the share
 * page, which has no user of its own, must not change the rider app's language).
 */
export async function setLanguage(next: Language, { remember = true }: { remember?: boolean | null } = {}): Promise<void> {
  const loaded = await Promise.all(catalogues.map(async (catalogue) => (next === 'en' ? catalogue.en : (await catalogue.load[next]()).messages)));
  try {
    if (remember === true) localStorage.setItem(STORED, next);
    else if (remember === false) localStorage.removeItem(STORED);
  } catch {
    // Storage may be off (a private window): the language still applies now.
  }
  if (next === current && loaded.length === parts.length && loaded.every((part, i) => part === parts[i])) return;
  current = next;
  parts = loaded;
  messages = loaded.reduce((all, part) => ({ ...all, ...part }), {});
  compiled = new Map();
  document.documentElement.lang = next;
  for (const listener of listeners) listener(next);
}

/** At start: the language this browser last showed, else the browser's. */
export function startLanguage(): Promise<void> {
  let stored: string | null;
  try {
    stored = localStorage.getItem(STORED);
  } catch {
    stored = null;
  }
  return applyChosenLanguage(stored);
}

/** The user's saved choice (settings.language), or the stored one at start: none means the browser's. */
export const applyChosenLanguage = (chosen: string | null | undefined): Promise<void> =>
  isLanguage(chosen) ? setLanguage(chosen) : setLanguage(browserLanguage(), { remember: false });

export function onLanguage(listener: (language: Language) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A message with elements in it: `<b>…</b>` in the message calls `values.b` with what it encloses. */
export function rich<T>(key: MessageKey, values: Record<string, string | number | ((chunks: Array<string | T>) => T)>): Array<string | T> {
  const out = formatOf(key).format<T>(values);
  return Array.isArray(out) ? out : [out];
}

/**
 * Words for a closed list (value → label) that follow the language: each label is read from the
 * catalogue (`prefix` + value) whenever it is shown. Typed so that every value has its message.
 */
export function labelsOf<P extends string, K extends string>(prefix: P, values: readonly K[]): Record<K, string> & ([`${P}${K}`] extends [MessageKey] ? unknown : never) {
  const labels = {} as Record<K, string>;
  for (const value of values) Object.defineProperty(labels, value, { enumerable: true, get: () => t(`${prefix}${value}` as MessageKey) });
  return labels as Record<K, string> & ([`${P}${K}`] extends [MessageKey] ? unknown : never);
}
