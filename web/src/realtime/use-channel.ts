import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiClient } from '../api/client.ts';
import { RealtimeChannel, type ChannelHandlers, type ChannelState } from './channel.ts';

/** The signed-in user's realtime channel for as long as the component lives; handlers may change between renders. */
export function useChannel(client: ApiClient, handlers: Omit<ChannelHandlers, 'state'>): { channel: RealtimeChannel; state: ChannelState } {
  const latest = useRef(handlers);
  latest.current = handlers;
  const [state, setState] = useState<ChannelState>('connecting');
  const [channel] = useState(
    () =>
      new RealtimeChannel(client, {
        message: (message) => latest.current.message(message),
        resync: () => latest.current.resync(),
        problem: (code, text) => latest.current.problem?.(code, text),
        state: setState,
      }),
  );
  useEffect(() => {
    channel.start();
    return () => channel.stop();
  }, [channel]);
  return { channel, state };
}
