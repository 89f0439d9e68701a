import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';

const schema = JSON.parse(readFileSync(new URL('../../schema/txray.schema.json', import.meta.url), 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: false });
const validate = ajv.compile(schema);

/** Validation errors of a --json document against the shipped schema ('' when valid). */
export function schemaErrors(doc: unknown): string {
  return validate(doc) ? '' : ajv.errorsText(validate.errors);
}
