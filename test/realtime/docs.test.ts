import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CLOSE } from '../../src/platform/realtime/connection.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';

const DOC = readFileSync(join(import.meta.dirname, '../../docs/realtime.md'), 'utf8');

describe('docs/realtime.md', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('every JSON example is a message with a type', () => {
    const examples = [...DOC.matchAll(/```json\n([\s\S]*?)\n```/g)].map((match) => match[1]);
    assert.ok(examples.length >= 10, `${examples.length} examples`);
    for (const example of examples) assert.equal(typeof (JSON.parse(example) as { type?: unknown }).type, 'string', example);
  });

  test('every close code the server uses is in the table of close codes', () => {
    for (const code of Object.values(CLOSE)) assert.match(DOC, new RegExp(`^\\| ${code} `, 'm'), `close code ${code}`);
  });

  test('the OpenAPI document describes the endpoint, and each message type it names has a section here', async () => {
    const operation = (await call(t.app, 'GET', '/openapi.json')).body.paths['/realtime'].get;
    assert.match(operation.description, /docs\/realtime\.md/);
    const named = [...(operation.description as string).matchAll(/`((?:ride|offer|notification)\.[a-z]+)`/g)].map((match) => match[1]);
    assert.ok(named.length >= 6, named.join(', '));
    for (const type of named) assert.match(DOC, new RegExp(`^###.*\`${type.replace('.', '\\.')}\``, 'm'), type);
  });

  test('each client message the modules take, as the OpenAPI document names it, has an example under "Messages from the client"', async () => {
    const operation = (await call(t.app, 'GET', '/openapi.json')).body.paths['/realtime'].get;
    const named = [...(operation.description as string).matchAll(/\{"type":"([a-z.-]+)",…\}` \(([A-Z, ]+)\)/g)].map((match) => match[1]);
    assert.ok(named.includes('position'), (operation.description as string));
    const section = DOC.slice(DOC.indexOf('## Messages from the client'), DOC.indexOf('## Resume'));
    const examples = [...section.matchAll(/```json\n([\s\S]*?)\n```/g)].map((match) => (JSON.parse(match[1]) as { type: string }).type);
    for (const type of named) assert.ok(examples.includes(type), `no example of "${type}"`);
  });
});
