// npm run verify-receipt -- receipt.json [--base http://localhost:8080] [--key keys.json] [--rules version.json]
//
// Checks a receipt (the answer of GET /rides/{id}/receipt, saved to a file) without trusting the
// service that issued it any further than its published key and pricing version: the signature
// with the key its header names (from GET /.well-known/receipt-keys, or a JWK set given with --key),
// then the fare recomputed from the receipt's inputs under its pricing version (GET
// /pricing/versions/{v}, or the document given with --rules) by the service's own fare functions.
// Prints OK or what does not match; exits 0 when everything matches, 1 when something does not,
// 2 on a usage error.

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Ajv } from 'ajv';
import { receiptFigures, receiptMismatches } from '../src/modules/rides/ride-receipt.ts';
import { SignedReceipt } from '../src/modules/rides/receipt.schemas.ts';
import type { PricingRules } from '../src/modules/pricing/pricing.schemas.ts';
import { checkSignature, type ReceiptKey } from '../src/platform/receipt-signing.ts';

const USAGE = 'usage: npm run verify-receipt -- receipt.json [--base http://localhost:8080] [--key keys.json] [--rules version.json]';

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

async function fetchJson(url: string): Promise<unknown> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
  return response.json();
}

/** A JWK set, or one key. */
function keysOf(document: unknown): ReceiptKey[] {
  const keys = (document as { keys?: unknown }).keys;
  return (Array.isArray(keys) ? keys : [document]) as ReceiptKey[];
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { base: { type: 'string', default: 'http://localhost:8080' }, key: { type: 'string' }, rules: { type: 'string' } } });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) {
    console.error(USAGE);
    return 2;
  }
  const base = values.base.replace(/\/+$/, '');
  const document = readJson(positionals[0]);
  const validate = new Ajv({ allErrors: true, validateFormats: false }).compile<SignedReceipt>(SignedReceipt);
  if (!validate(document)) {
    console.log(`FAILED: ${positionals[0]} is not a receipt: ${(validate.errors ?? []).map((e) => `${e.instancePath || 'document'} ${e.message ?? 'is invalid'}`).join('; ')}`);
    return 1;
  }
  const { receipt, signature } = document;

  const keys = keysOf(values.key ? readJson(values.key) : await fetchJson(`${base}/.well-known/receipt-keys`));
  const signed = checkSignature(receipt, signature, keys);
  if (!signed.ok) {
    console.log(`FAILED: signature: ${signed.problem}`);
    return 1;
  }
  console.log(`signature: OK (key ${signed.kid})`);

  const version = (values.rules ? readJson(values.rules) : await fetchJson(`${base}/pricing/versions/${receipt.pricingVersion}`)) as PricingRules & { version?: number };
  if (version.version !== undefined && version.version !== receipt.pricingVersion) {
    console.log(`FAILED: the pricing document is version ${version.version}; the receipt was priced with version ${receipt.pricingVersion}`);
    return 1;
  }
  const problems = receiptMismatches(receipt, receiptFigures(receipt, version));
  if (problems.length > 0) {
    for (const problem of problems) console.log(`MISMATCH: ${problem}`);
    return 1;
  }
  console.log(`fare: OK (ride ${receipt.rideId}: ${receipt.fare} INR recomputed from pricing version ${receipt.pricingVersion}; the driver's ${receipt.driverAmountInInr}, the platform's ${receipt.platformFeeInInr})`);
  console.log('OK');
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(`FAILED: ${(error as Error).message}`);
    process.exitCode = 1;
  },
);
