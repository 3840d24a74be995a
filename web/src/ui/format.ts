import { locale, t } from '../i18n/i18n.ts';

// Numbers, money and times in the app's language (its Intl locale: en-IN, hi-IN, kn-IN). The
// formatters are made once per language.

interface Formats {
  rupees: Intl.NumberFormat;
  count: Intl.NumberFormat;
  percent: Intl.NumberFormat;
  clock: Intl.DateTimeFormat;
  clockWithSeconds: Intl.DateTimeFormat;
  dayAndTime: Intl.DateTimeFormat;
  day: Intl.DateTimeFormat;
}

const made = new Map<string, Formats>();

function formats(): Formats {
  const tag = locale();
  let found = made.get(tag);
  if (!found) {
    found = {
      rupees: new Intl.NumberFormat(tag, { style: 'currency', currency: 'INR', maximumFractionDigits: 2 }),
      count: new Intl.NumberFormat(tag),
      percent: new Intl.NumberFormat(tag, { style: 'percent', maximumFractionDigits: 1 }),
      clock: new Intl.DateTimeFormat(tag, { hour: '2-digit', minute: '2-digit' }),
      clockWithSeconds: new Intl.DateTimeFormat(tag, { hour: '2-digit', minute: '2-digit', second: '2-digit' }),
      dayAndTime: new Intl.DateTimeFormat(tag, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }),
      day: new Intl.DateTimeFormat(tag, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }),
    };
    made.set(tag, found);
  }
  return found;
}

/** ₹1,234 (paise shown only when there are any). */
export const money = (inr: number): string => formats().rupees.format(inr).replace(/\.00$/, '');

/** 12,34,567: a count as the language groups its digits. */
export const count = (value: number): string => formats().count.format(value);

/** 12.5%, from a share (0.125). */
export const percent = (share: number): string => formats().percent.format(share);

export const timeOf = (iso: string): string => formats().clock.format(new Date(iso));

/** For figures that refresh every few seconds. */
export const secondsOf = (iso: string): string => formats().clockWithSeconds.format(new Date(iso));

export const dateTimeOf = (iso: string): string => formats().dayAndTime.format(new Date(iso));

/** Mon, 3 Nov: a calendar day as the API gives it (2026-11-03), whatever the browser's time zone. */
export const dayOf = (date: string): string => formats().day.format(new Date(`${date}T00:00:00Z`));

export const minutes = (value: number): string => t('format.minutes', { value });

/** 1.2 km; whole metres below a kilometre would be false precision. */
export const km = (value: number): string => t('format.km', { value: value < 10 ? value.toFixed(1) : String(Math.round(value)) });
