import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mount } from './dom.ts';

const { h, render } = await import('preact');
const { act } = await import('preact/test-utils');
const { go, matchRoute, useRoute } = await import('../../../web/src/ui/router.ts');

const ROUTES = ['/', '/rides', '/rides/:id', '/users'] as const;

describe('hash router', () => {
  test('a route picks its pattern, and a `:name` segment gives its value', () => {
    assert.deepEqual(matchRoute(ROUTES, '/'), { pattern: '/', params: {} });
    assert.deepEqual(matchRoute(ROUTES, '/rides'), { pattern: '/rides', params: {} });
    assert.deepEqual(matchRoute(ROUTES, '/rides/12'), { pattern: '/rides/:id', params: { id: '12' } });
  });

  test('a route the app does not know leads to its home, the first pattern', () => {
    for (const route of ['/nowhere', '/rides/', '/rides/12/more', '/users/3', '']) assert.deepEqual(matchRoute(ROUTES, route), { pattern: '/', params: {} }, route);
  });

  test('the screen follows the address: a link (hash change) re-renders with the new route', async () => {
    function Current() {
      const { pattern, params } = matchRoute(ROUTES, useRoute());
      return h('p', null, `${pattern} ${params.id ?? ''}`.trim());
    }
    const root = mount();
    go('/users');
    await act(() => render(h(Current, null), root));
    assert.equal(root.textContent, '/users');
    await act(async () => {
      // The browser announces a hash change as an event of its own, after the change.
      const changed = new Promise((resolve) => window.addEventListener('hashchange', resolve, { once: true }));
      go('/rides/41');
      await changed;
    });
    assert.equal(root.textContent, '/rides/:id 41');
  });
});
