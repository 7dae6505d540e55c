// Every domain error code has a message in German and in English for the console, and the
// console's error page shows it instead of the API's developer text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ERROR_CODES } from '../../src/domain/errors.ts';
import { MESSAGES } from '../../src/http/console/i18n.ts';

test('every domain error code has a German and an English console message, and they differ', () => {
  const missing: string[] = [];
  for (const code of ERROR_CODES) {
    for (const locale of ['de', 'en'] as const) {
      const text = MESSAGES[locale][`code.${code}`];
      if (!text || !text.trim()) missing.push(`${locale}: code.${code}`);
    }
    if (MESSAGES.de[`code.${code}`] && MESSAGES.de[`code.${code}`] === MESSAGES.en[`code.${code}`]) missing.push(`de = en: code.${code}`);
  }
  assert.deepEqual(missing, []);
  // Control: a code the catalogue does not know is reported.
  assert.equal(MESSAGES.de['code.NO_SUCH_CODE'], undefined);
});

test('the German and English catalogues have the same keys', () => {
  const de = Object.keys(MESSAGES.de).sort();
  const en = Object.keys(MESSAGES.en).sort();
  assert.deepEqual(de.filter((k) => !en.includes(k)), []);
  assert.deepEqual(en.filter((k) => !de.includes(k)), []);
});
