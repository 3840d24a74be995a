import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { en } from '../../web/src/i18n/en.ts';
import { messages as hi } from '../../web/src/i18n/hi.ts';
import { messages as kn } from '../../web/src/i18n/kn.ts';
import { opsEn } from '../../web/src/i18n/ops-en.ts';
import { messages as opsHi } from '../../web/src/i18n/ops-hi.ts';
import { messages as opsKn } from '../../web/src/i18n/ops-kn.ts';
import { checkCatalogues } from '../helpers/catalogues.ts';

describe("the apps' message catalogues", () => {
  test('Hindi and Kannada have every English key, no other, with the same placeholders', () => {
    checkCatalogues('web/src/i18n', en, { hi, kn });
  });

  test("the operator console's own catalogue too, and none of its keys is also a shared one", () => {
    checkCatalogues('web/src/i18n/ops', opsEn, { hi: opsHi, kn: opsKn });
    assert.deepEqual(Object.keys(opsEn).filter((key) => key in en), [], 'a key in both would be two texts for one name');
    assert.deepEqual(Object.keys(opsEn).filter((key) => !key.startsWith('ops.')), [], "the console's keys all start with ops.");
  });

  test('the check itself finds a missing key, an extra one and a changed placeholder', () => {
    const english = { greeting: 'Hello {name}', count: '{n, plural, one {# ride} other {# rides}}', who: '{by, select, rider {the rider} other {someone}}', bold: 'Pay <b>{fee}</b>' };
    const broken = { greeting: 'नमस्ते {naam}', count: '{n, plural, one {# सवारी} other {# सवारियाँ}}', who: '{by, select, driver {ड्राइवर} other {कोई}}', extra: 'x' };
    assert.throws(() => checkCatalogues('sample', english, { hi: broken }), (error: Error) => {
      for (const expected of ['hi: missing bold', 'hi: extra is not in the English catalogue', 'hi greeting: lacks {name} (text), has {naam} (text)', 'hi who: lacks {by} case rider, has {by} case driver']) {
        assert.ok(error.message.includes(expected), `reports "${expected}" in:\n${error.message}`);
      }
      assert.ok(!error.message.includes('hi count'), 'plural cases may differ by language');
      return true;
    });
  });
});
