import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Ride, RideStop } from '../../../web/src/api/types.ts';
import { mount } from './dom.ts';

// A ride's stops in both apps: in order, which is next, and when each was reached and left.

const { h, render: draw } = await import('preact');
const { act } = await import('preact/test-utils');
const { nextStopOf, StopList } = await import('../../../web/src/ui/stop-list.tsx');

const stop = (place: string | null, reachedAt: string | null = null, leftAt: string | null = null): RideStop => ({ lat: 12.95, lon: 77.6, place, reachedAt, leftAt });

describe('the stop list', () => {
  test('none: nothing shown', async () => {
    const root = mount();
    await act(() => draw(h(StopList, { ride: { status: 'PICKED', stops: [] } }), root));
    assert.equal(root.textContent, '');
  });

  test('lists the stops in order and says which is next', async () => {
    const ride = { status: 'PICKED', stops: [stop('Lalbagh', '2026-11-28T10:00:00.000Z', '2026-11-28T10:04:00.000Z'), stop(null), stop('Forum')] } as Pick<Ride, 'status' | 'stops'>;
    assert.equal(nextStopOf(ride), 1);
    const root = mount();
    await act(() => draw(h(StopList, { ride }), root));
    const items = [...root.querySelectorAll('li')].map((item) => item.textContent);
    assert.match(items[0], /^Lalbagh — reached .+, left .+$/);
    assert.deepEqual(items.slice(1), ['Pinned point — next', 'Forum']);
  });
});
