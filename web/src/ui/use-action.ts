import { useCallback, useState } from 'preact/hooks';
import { t } from '../i18n/i18n.ts';

export interface Action<A extends unknown[]> {
  run: (...args: A) => Promise<void>;
  busy: boolean;
  /** The message of the last failure, cleared when the action runs again. */
  error: string;
}

/** Runs a user's action: busy while it runs, and what went wrong in words, never a thrown error. */
export function useAction<A extends unknown[]>(action: (...args: A) => Promise<unknown>): Action<A> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const run = useCallback(
    async (...args: A) => {
      setBusy(true);
      setError('');
      try {
        await action(...args);
      } catch (caught) {
        setError(caught instanceof Error ? caught.message : t('error.generic'));
      } finally {
        setBusy(false);
      }
    },
    [action],
  );
  return { run, busy, error };
}
