import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mount } from './dom.ts';

// A trip's end or stop typed in the rider app: what is typed the moment the field appears stays.

const { h, render: draw } = await import('preact');
const { act } = await import('preact/test-utils');
const { PlaceInput } = await import('../../../web/src/rider/place-input.tsx');

test('text typed before the field has settled is kept, and its suggestions shown', async () => {
  const root = mount();
  // Rendered outside act(): its effects are still to run when the user types, as in a browser that
  // paints the field before running them.
  draw(h(PlaceInput, { label: 'New destination', name: 'destination', value: null, onChange: () => {} }), root);
  const input = root.querySelector('input')!;
  input.value = 'hsr';
  input.dispatchEvent(new (input.ownerDocument.defaultView as unknown as typeof globalThis).Event('input', { bubbles: true }));
  await act(async () => {});
  assert.equal(root.querySelector('input')!.value, 'hsr');
  assert.ok([...root.querySelectorAll('.places button')].some((button) => button.textContent === 'HSR Layout'), 'HSR Layout is suggested');
});
