/** The pure parts of --internal: the AST's functions (hostile input passed over) and the order the HTML report reads back. */
import { describe, expect, test } from 'vitest';
import { functionDefinitions } from '../../src/locate/functionDefinitions.js';
import { insideOrder } from '../../src/render/insideOrder.js';
import type { JsonInternalCall } from '../../src/render/renderJson.js';

describe('functionDefinitions', () => {
  const ast = {
    nodeType: 'SourceUnit',
    nodes: [
      { nodeType: 'PragmaDirective', src: '0:23:0' },
      { nodeType: 'FunctionDefinition', kind: 'freeFunction', name: 'half', src: '25:60:0' },
      {
        nodeType: 'ContractDefinition',
        name: 'Bank',
        src: '87:400:0',
        nodes: [
          { nodeType: 'FunctionDefinition', kind: 'constructor', name: '', src: '100:30:0' },
          { nodeType: 'ModifierDefinition', name: 'only', src: '131:20:0' },
          { nodeType: 'FunctionDefinition', kind: 'function', name: '_fee', src: '152:70:0' },
          { nodeType: 'FunctionDefinition', kind: 'receive', name: '', src: '223:30:0' },
          { nodeType: 'FunctionDefinition', kind: 'function', name: '\u001b[31mevil', src: '254:30:0' },
          { nodeType: 'FunctionDefinition', kind: 'function', name: 'noRange', src: 'x:y:z' },
          'not a node',
          null,
        ],
      },
      { nodeType: 'ContractDefinition', name: 'Lib', src: '490:100:0', nodes: [{ nodeType: 'FunctionDefinition', kind: 'function', name: 'sub', src: '500:50:0' }] },
      { nodeType: 'ContractDefinition', name: 'bad name!', src: '600:10:0', nodes: [{ nodeType: 'FunctionDefinition', kind: 'function', name: 'f', src: '601:5:0' }] },
    ],
  };

  test('functions with their contract or library (null for a free one); constructors, receive, modifiers and hostile names left out', () => {
    // Each with its node (what the debugger's locals read).
    expect(functionDefinitions(ast)).toEqual([
      { name: 'half', contract: null, sourceId: 0, start: 25, length: 60, node: expect.objectContaining({ name: 'half', src: '25:60:0' }) },
      { name: '_fee', contract: 'Bank', sourceId: 0, start: 152, length: 70, node: expect.objectContaining({ name: '_fee', src: '152:70:0' }) },
      { name: 'sub', contract: 'Lib', sourceId: 0, start: 500, length: 50, node: expect.objectContaining({ name: 'sub', src: '500:50:0' }) },
    ]);
  });

  test.each([null, 42, 'text', [], { nodes: 'no' }, { nodes: [{ nodeType: 'ContractDefinition', name: 'C', nodes: {} }] }])('not an AST (%j): none', (bad) => {
    expect(functionDefinitions(bad)).toEqual([]);
  });
});

describe('insideOrder', () => {
  const call = (name: string, callsBefore: number, more: Partial<JsonInternalCall> = {}): JsonInternalCall => ({ name, contract: 'C', file: 'src/C.sol', line: 1, gasUsed: '1', children: [], callsBefore, ...more });

  test('the frame\'s calls and internal calls at their places; calls made inside an internal call under it only', () => {
    const inner = call('_inner', 1, { calls: [1] });
    const outer = call('_outer', 1, { children: [inner], calls: [2] });
    const tail = call('_tail', 3);
    const top = [outer, tail];
    expect(insideOrder(4, top, null)).toEqual([{ call: 0 }, { internal: outer }, { internal: tail }, { call: 3 }]);
    expect(insideOrder(4, top, outer)).toEqual([{ internal: inner }, { call: 2 }]);
    expect(insideOrder(4, top, inner)).toEqual([{ call: 1 }]);
  });
});
