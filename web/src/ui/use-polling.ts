import { useEffect, useRef } from 'preact/hooks';
import { useAction, type Action } from './use-action.ts';

/**
 * Runs `load` at once and every `everyMs` while the page is visible (a hidden tab asks nothing, and
 * catches up when shown again); a load still running is not started twice. `run` refreshes now.
 */
export function usePolling(load: () => Promise<unknown>, everyMs: number): Action<[]> {
  const action = useAction(load);
  const latest = useRef(action.run);
  latest.current = action.run;
  useEffect(() => {
    let running = false;
    const tick = () => {
      if (running || document.visibilityState !== 'visible') return;
      running = true;
      void latest.current().finally(() => (running = false));
    };
    tick();
    const timer = setInterval(tick, everyMs);
    document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  }, [everyMs]);
  return action;
}
