import { register } from 'node:module';
import { Window } from 'happy-dom';

// Component tests: the web apps' components rendered by Preact into a small in-process DOM
// (happy-dom), with no browser. Importing this module first makes .tsx importable (import them
// dynamically, after it: static imports load before this runs) and gives the globals a component
// expects (window, document, location, localStorage).
register('./tsx-hooks.ts', import.meta.url);

const window = new Window({ url: 'http://localhost/app/rider/' });
const globals = { window, document: window.document, location: window.location, localStorage: window.localStorage, navigator: window.navigator, HTMLElement: window.HTMLElement, Event: window.Event, ResizeObserver: window.ResizeObserver };
for (const [name, value] of Object.entries(globals)) Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });

/** A fresh element to render into. */
export function mount(): HTMLElement {
  document.body.innerHTML = '';
  return document.body.appendChild(document.createElement('div'));
}
