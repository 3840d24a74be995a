import type { FastifyInstance } from 'fastify';
import { HttpClient, type Answer, type Fetch } from '../../src/contract/http-client.ts';
import type { Reply, TestApp } from './app.ts';

// The tests' side of the contract's one HTTP client: requests built from the route table, carried
// by app.inject instead of a socket (the app of the moment: a restart swaps it).

/** A fetch that hands the request to app.inject and its answer back as a Response. */
export function injectFetch(app: () => FastifyInstance): Fetch {
  return async (url, init) => {
    const { pathname, search } = new URL(url, 'http://test.invalid');
    const response = await app().inject({
      method: init.method as 'GET',
      url: pathname + search,
      headers: init.headers as Record<string, string>,
      ...(init.body === undefined || init.body === null ? {} : { payload: init.body as string }),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) headers.append(name, String(one));
    }
    const empty = response.statusCode === 204 || response.statusCode === 304;
    return new Response(empty ? null : response.rawPayload, { status: response.statusCode, headers });
  };
}

/** The API of the test app as `user` (anonymous when no user is given). */
export function apiOf(t: TestApp, user?: { token: string }): HttpClient {
  return new HttpClient({ fetch: injectFetch(() => t.app), tokens: user && { token: () => user.token } });
}

/** An answer in the shape of `call`'s Reply, for helpers whose callers check a refusal. */
export const asReply = (answer: Answer): Reply => ({ status: answer.status, body: answer.body, headers: Object.fromEntries(answer.headers) });
