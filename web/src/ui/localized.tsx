import { Fragment, render, type VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { applyChosenLanguage, language, LANGUAGE_NAMES, LANGUAGES, onLanguage, setLanguage, startLanguage, t, type Language } from '../i18n/i18n.ts';
import { useApi, useSession } from './app-context.tsx';
import { ErrorNotice, Field } from './components.tsx';
import { useAction } from './use-action.ts';

/**
 * Starts an app in its language (the one this browser last showed, else the browser's) and renders it
 * anew whenever the language changes: every text, number and date is then in the new one at once.
 * `app` makes the tree; state that must outlive a change (the API client, the session) lives outside it.
 */
export async function renderLocalized(app: () => VNode, root: HTMLElement): Promise<void> {
  await startLanguage();
  render(<Localized app={app} />, root);
}

function Localized({ app }: { app: () => VNode }) {
  const [shown, setShown] = useState(language());
  useEffect(() => onLanguage(setShown), []);
  return <Fragment key={shown}>{app()}</Fragment>;
}

// Once per signed-in user and page: the language they chose (settings.language) wins over the browser's.
let appliedFor: number | null = null;

/** Shows a signed-in user's app in the language they chose, once their settings arrive. */
export function useChosenLanguage(): void {
  const api = useApi();
  const userId = useSession()?.userId ?? null;
  useEffect(() => {
    if (userId === null || appliedFor === userId) return;
    appliedFor = userId;
    api.settings.get().then((mine) => applyChosenLanguage(mine.language), () => undefined);
  }, [api, userId]);
}

/** The language picker: the change applies at once and is saved to the user's settings. */
export function LanguagePicker() {
  const api = useApi();
  const change = useAction(async (next: Language) => {
    await api.settings.update({ language: next });
    await setLanguage(next);
  });
  return (
    <div class="stack">
      <Field label={t('language.label')}>
        <select name="language" value={language()} disabled={change.busy} onChange={(event) => void change.run(event.currentTarget.value as Language)}>
          {LANGUAGES.map((code) => (
            <option key={code} value={code} lang={code}>
              {LANGUAGE_NAMES[code]}
            </option>
          ))}
        </select>
      </Field>
      <ErrorNotice message={change.error} />
    </div>
  );
}
