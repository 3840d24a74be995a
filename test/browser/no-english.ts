import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { KNOWN_PLACES } from '../../web/src/map/places.ts';

// "No English string left on its screens" (issue 33), checked on what a person sees: the page's
// visible text and the names assistive technology reads (aria-label, title, placeholder, alt). Every
// English message has Latin letters and a Hindi or Kannada one has none, so a word in Latin letters
// that remains once the allowed ones are taken out is English that was not translated. Allowed:
// proper nouns (the city's places, people's names, plates), e-mail addresses, what a command line
// shows (<code>), text the page marks as in another language (lang="en": the service's own words, such
// as a compliance rule's finding), the endonym "English" of the language picker, Intl's own am/pm, and
// `extra`.

const ALWAYS = ['SOS', 'Leaflet', 'English', 'am', 'pm', 'AM', 'PM', ...KNOWN_PLACES.map((place) => place.name)];

/** The visible text and accessible names of the page, each code element's and other language's text taken out. */
async function shownText(page: Page): Promise<string> {
  const { text, codes, names } = await page.evaluate(() => {
    const document = (globalThis as any).document;
    const names: string[] = [];
    for (const element of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
      for (const attribute of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = element.getAttribute(attribute);
        if (value) names.push(value);
      }
    }
    const own = document.documentElement.lang as string;
    const apart = [...document.querySelectorAll('code, body [lang]')].filter((element: any) => element.tagName === 'CODE' || element.lang !== own);
    return { text: document.body.innerText as string, codes: apart.map((element: any) => element.innerText as string), names };
  });
  let all = [text, ...names].join('\n');
  for (const code of codes) all = all.split(code).join(' ');
  return all;
}

/** Fails, naming each word and its line, when the page shows a word in Latin letters not allowed. */
export async function assertNoEnglish(page: Page, screen: string, extra: string[] = []): Promise<void> {
  let text = await shownText(page);
  text = text.replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, ' ');
  // Whole words only ("en" allowed is not "en" inside a word), longest first, so "MG Road Metro" goes before a shorter name inside it.
  for (const allowed of [...ALWAYS, ...extra].sort((a, b) => b.length - a.length)) {
    text = text.replace(new RegExp(`(?<![A-Za-z])${allowed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z])`, 'g'), ' ');
  }
  const found = text
    .split('\n')
    .flatMap((line) => [...line.matchAll(/[A-Za-z]{2,}/g)].map((word) => `"${word[0]}" in: ${line.trim()}`));
  assert.deepEqual(found, [], `${screen}: English left on the screen`);
}
