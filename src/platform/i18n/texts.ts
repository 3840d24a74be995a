import { IntlMessageFormat, type Formats } from 'intl-messageformat';
import { LANGUAGES, type Language } from '../vocabulary.ts';
import { en, type Messages, type TextKey } from './en.ts';
import { messages as hi } from './hi.ts';
import { messages as kn } from './kn.ts';

// The service's own texts in the reader's language: one catalogue per language (en.ts is the source),
// ICU messages formatted by intl-messageformat, numbers, rupees and times through Intl in the
// language as written in India. docs/rides.md "Notifications" says who reads which language.

export type { Language, TextKey };
export const CATALOGUES: Record<Language, Messages> = { en, hi, kn };

/** The locale for Intl, as the apps use it (web/src/i18n/i18n.ts). */
const LOCALES: Record<Language, string> = { en: 'en-IN', hi: 'hi-IN', kn: 'kn-IN' };

export type TextValues = Readonly<Record<string, string | number>>;

/** A notification's text by name: the catalogue holds `notice.<name>.title` and `notice.<name>.message`. */
export type NoticeName = { [K in TextKey]: K extends `notice.${infer Name}.title` ? Name : never }[TextKey];

/** A notification's words as data, rendered in each reader's language when it is read or sent. */
export interface NoticeText {
  name: NoticeName;
  values: TextValues;
}

/** The texts in one language: the key's message with its values filled in. */
export type Say = (key: TextKey, values?: TextValues) => string;

export class Texts {
  readonly #formats: Partial<Formats>;
  /** Parsed once per language and key (a few hundred at most). */
  readonly #compiled = new Map<string, IntlMessageFormat>();

  /** `timeZone`: the service's (SERVICE_TIMEZONE), in which `{at, date, moment}` shows a time. */
  constructor(timeZone: string) {
    this.#formats = {
      number: { money: { style: 'currency', currency: 'INR', trailingZeroDisplay: 'stripIfInteger' } },
      // `day` is a calendar date (a document's expiry), kept as UTC midnight: shown in UTC so it stays that day.
      date: { moment: { dateStyle: 'medium', timeStyle: 'short', timeZone }, day: { dateStyle: 'long', timeZone: 'UTC' } },
    };
  }

  render(language: Language, key: TextKey, values: TextValues = {}): string {
    const id = `${language} ${key}`;
    let format = this.#compiled.get(id);
    if (!format) {
      format = new IntlMessageFormat(CATALOGUES[language][key], LOCALES[language], this.#formats);
      this.#compiled.set(id, format);
    }
    return String(format.format(values));
  }

  in(language: Language): Say {
    return (key, values) => this.render(language, key, values);
  }

  notice(language: Language, text: NoticeText): { title: string; message: string } {
    return { title: this.render(language, `notice.${text.name}.title`, text.values), message: this.render(language, `notice.${text.name}.message`, text.values) };
  }
}

/**
 * The language of an Accept-Language header (`hi-IN,hi;q=0.9,en;q=0.8`): the most preferred one the
 * service speaks (hi-IN counts as hi), else English. For texts to someone with no settings yet.
 */
export function languageOfHeader(header: string | undefined): Language {
  const ranked = (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
      return { primary: tag.trim().toLowerCase().split('-')[0], q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.map((entry) => entry.primary).find((primary): primary is Language => LANGUAGES.includes(primary as Language)) ?? 'en';
}
