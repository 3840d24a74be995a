import assert from 'node:assert/strict';
import { IntlMessageFormat } from 'intl-messageformat';

// The missing-key check for message catalogues (the apps' web/src/i18n, the service's
// src/platform/i18n): every language has exactly the English keys, every message parses as ICU,
// and each translation uses the same placeholders, elements and select cases as the English one.

interface Element {
  type: number;
  value?: string;
  options?: Record<string, { value: Element[] }>;
  children?: Element[];
}

// intl-messageformat's element types (its parser's TYPE enum).
const ARGUMENT_TYPES: Record<number, string> = { 1: 'text', 2: 'number', 3: 'date', 4: 'time', 5: 'select', 6: 'plural' };
const TAG = 8;
const SELECT = 5;

function signature(elements: Element[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (ARGUMENT_TYPES[element.type]) into.add(`{${element.value}} (${ARGUMENT_TYPES[element.type]})`);
    if (element.type === TAG) {
      into.add(`<${element.value}>`);
      signature(element.children ?? [], into);
    }
    if (element.options) {
      // Plural cases differ by language (Hindi and Kannada have one and other, others more); select cases must match.
      if (element.type === SELECT) for (const key of Object.keys(element.options)) into.add(`{${element.value}} case ${key}`);
      for (const option of Object.values(element.options)) signature(option.value, into);
    }
  }
  return into;
}

const parsed = (message: string, locale: string): Set<string> => signature(new IntlMessageFormat(message, locale).getAst());

/** Fails with every problem found: keys missing or extra in a language, a message that does not parse, placeholders that differ. */
export function checkCatalogues(name: string, english: Record<string, string>, others: Record<string, Record<string, string>>): void {
  const problems: string[] = [];
  const expected = new Map<string, Set<string>>();
  for (const [key, message] of Object.entries(english)) {
    try {
      expected.set(key, parsed(message, 'en'));
    } catch (error) {
      problems.push(`en ${key}: does not parse (${(error as Error).message})`);
    }
  }
  for (const [language, messages] of Object.entries(others)) {
    for (const key of Object.keys(english)) if (!(key in messages)) problems.push(`${language}: missing ${key}`);
    for (const key of Object.keys(messages)) if (!(key in english)) problems.push(`${language}: ${key} is not in the English catalogue`);
    for (const [key, message] of Object.entries(messages)) {
      const want = expected.get(key);
      if (!want) continue;
      let got: Set<string>;
      try {
        got = parsed(message, language);
      } catch (error) {
        problems.push(`${language} ${key}: does not parse (${(error as Error).message})`);
        continue;
      }
      const missing = [...want].filter((part) => !got.has(part));
      const extra = [...got].filter((part) => !want.has(part));
      if (missing.length || extra.length) problems.push(`${language} ${key}: ${[...missing.map((part) => `lacks ${part}`), ...extra.map((part) => `has ${part} that English has not`)].join(', ')}`);
    }
  }
  assert.deepEqual(problems, [], `${name}: ${problems.length} problem(s)`);
}
