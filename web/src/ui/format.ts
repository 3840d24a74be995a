const rupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 2 });
const clock = new Intl.DateTimeFormat('en-IN', { hour: '2-digit', minute: '2-digit' });
const clockWithSeconds = new Intl.DateTimeFormat('en-IN', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const dayAndTime = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });

/** ₹1,234 (paise shown only when there are any). */
export const money = (inr: number): string => rupees.format(inr).replace(/\.00$/, '');

export const timeOf = (iso: string): string => clock.format(new Date(iso));

/** For figures that refresh every few seconds. */
export const secondsOf = (iso: string): string => clockWithSeconds.format(new Date(iso));

export const dateTimeOf = (iso: string): string => dayAndTime.format(new Date(iso));

export const minutes = (value: number): string => `${value} min`;

/** 1.2 km; whole metres below a kilometre would be false precision. */
export const km = (value: number): string => `${value < 10 ? value.toFixed(1) : Math.round(value)} km`;
