import { describe, expect, test } from 'vitest';
import { documentParts } from '../../src/render/documentParts.js';
import type { JsonDocument } from '../../src/render/renderJson.js';
import { writeJson } from '../../src/render/writeJson.js';

/** A document with only the members these tests look at (documentParts reads none of the others). */
const docOf = (members: Record<string, unknown>): JsonDocument => members as unknown as JsonDocument;
const printed = (doc: JsonDocument): string => [...writeJson(doc, 0)].join('').slice(0, -1);

describe('documentParts: the --json text in parts, the raw answers the report never shows apart', () => {
  test('the parts make the exact text --json prints; the receipt logs and the trace are the parts marked unread, in the order they stand', () => {
    const logs = [{ address: '0xab', topics: ['0x01'], data: '0x' }];
    const trace = [{ action: { from: '0x1', input: '0x"<\u202e' }, result: null, traceAddress: [] }];
    const doc = docOf({ schemaVersion: 1, hash: '0xaa', receipt: { status: '0x1', logs, gasUsed: '0x5208' }, trace, calls: { children: [] }, logs: [{ event: null, text: 'txray-part-0' }] });
    const parts = documentParts(doc);
    expect(parts.map((p) => p.text).join('')).toBe(printed(doc));
    expect(parts.map((p) => p.unread)).toEqual([false, true, false, true, false]);
    expect(parts.filter((p) => p.unread).map((p) => JSON.parse(p.text))).toEqual([logs, trace]);
    // Read with the unread parts as null: the rest of the document as it is.
    expect(JSON.parse(parts.map((p) => (p.unread ? 'null' : p.text)).join(''))).toEqual({ ...doc, receipt: { status: '0x1', logs: null, gasUsed: '0x5208' }, trace: null });
  });

  test('a document without them (a simulation: no receipt; a node without traces: a null trace) is one part', () => {
    for (const doc of [docOf({ schemaVersion: 1, receipt: null, trace: null, calls: null }), docOf({ schemaVersion: 1, receipt: { status: '0x1' }, trace: 'not an answer' })]) {
      expect(documentParts(doc)).toEqual([{ text: printed(doc), unread: false }]);
    }
  });

  test('only the trace where the receipt has no logs member', () => {
    const doc = docOf({ receipt: { status: '0x0' }, trace: { calls: [] }, last: true });
    const parts = documentParts(doc);
    expect(parts.map((p) => p.text).join('')).toBe(printed(doc));
    expect(parts.map((p) => p.unread)).toEqual([false, true, false]);
  });
});
