import { Fragment, render, type ComponentType, type VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { createApi } from '../api/endpoints.ts';
import { loadSettings } from '../config.ts';
import { applyChosenLanguage, language, LANGUAGE_NAMES, LANGUAGES, onLanguage, setLanguage, startLanguage, t, type Language, type MessageKey } from '../i18n/i18n.ts';
import { AppProvider, useApi, useSession } from './app-context.tsx';
import { registerWorker, UpdateNotice } from './app-update.tsx';
import { ErrorNotice, Field } from './components.tsx';
import { ErrorBoundary } from './error-boundary.tsx';
import { useAction } from './use-action.ts';

/**
 * Starts the rider or the driver app (its session kept under `storageKey`, `name` its name in the
 * error message) in its language, the one this browser last showed, else the browser's, and renders it
 * anew whenever the language changes: every text, number and date is then in the new one at once.
 * State that must outlive a change (the API client, the session) lives outside the tree.
 */
export async function startLocalizedApp(storageKey: string, name: MessageKey, App: ComponentType): Promise<void> {
  const settings = await loadSettings();
  const api = createApi(storageKey);
  await startLanguage();
  const app = () => (
    <ErrorBoundary app={t(name)}>
      <AppProvider api={api} settings={settings}>
        <UpdateNotice />
        <App />
      </AppProvider>
    </ErrorBoundary>
  );
  render(<Localized app={app} />, document.getElementById('app')!);
  registerWorker();
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
