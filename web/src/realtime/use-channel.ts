import { useEffect, useRef, useState } from 'preact/hooks';
import { ResumeClient, type ChannelState, type ResumeHandlers } from '../../../src/contract/realtime-client.ts';
import { REALTIME_PATH } from '../../../src/contract/routes.ts';
import type { ApiClient } from '../api/client.ts';

/** A ping every 20 s; a connection that answers none within 10 s is given up and opened again. */
const PING_EVERY_MS = 20_000;

/**
 * The signed-in user's realtime channel (the contract's resume client) for as long as the
 * component lives, on the page's own host; handlers may change between renders.
 */
export function useChannel(client: ApiClient, handlers: Pick<ResumeHandlers, 'message' | 'resync' | 'problem'>): { channel: ResumeClient; state: ChannelState } {
  const latest = useRef(handlers);
  latest.current = handlers;
  const [state, setState] = useState<ChannelState>('connecting');
  const [channel] = useState(
    () =>
      new ResumeClient(
        {
          url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${REALTIME_PATH}`,
          token: () => client.accessToken(),
          renew: (refused) => client.renew(refused),
          pingEveryMs: PING_EVERY_MS,
        },
        {
          message: (message) => latest.current.message(message),
          resync: (reason) => latest.current.resync(reason),
          problem: (code, text) => latest.current.problem?.(code, text),
          state: setState,
        },
      ),
  );
  useEffect(() => {
    channel.start();
    return () => channel.stop();
  }, [channel]);
  return { channel, state };
}
