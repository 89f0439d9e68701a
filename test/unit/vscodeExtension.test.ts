/**
 * editors/vscode, the VS Code extension that registers the `txray` debug type: its manifest declares the
 * type and what a launch takes (the adapter's launch arguments, no others), its launch.json example and
 * the one in docs/editors.md launch that type, and the extension itself, loaded as VS Code loads it (with a
 * stand-in of the `vscode` module that records what it is given), runs `txray debug --dap` in the
 * launch's folder. It ships in no npm package (package.json's `files`).
 */
import { readFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string): any => JSON.parse(readFileSync(`${root}${path}`, 'utf8'));
/** The adapter's launch arguments (src/dap/types.ts's LaunchArgs). */
const LAUNCH = ['hash', 'rpcUrl', 'cwd', 'stopOnEntry'];

describe('editors/vscode', () => {
  test('the manifest contributes the txray debugger for Solidity, its launch attributes the adapter\'s', () => {
    const manifest = read('editors/vscode/package.json');
    const [debuggerOf] = manifest.contributes.debuggers;
    expect(debuggerOf).toMatchObject({ type: 'txray', languages: ['solidity'] });
    expect(Object.keys(debuggerOf.configurationAttributes.launch.properties).sort()).toEqual([...LAUNCH].sort());
    expect(manifest.contributes.breakpoints).toEqual([{ language: 'solidity' }]);
    expect(manifest.main).toBe('./extension.js');
  });

  test('the launch.json example, and the one docs/editors.md shows, launch the txray type with the adapter\'s arguments only', () => {
    const doc = readFileSync(`${root}docs/editors.md`, 'utf8');
    const shown = JSON.parse(/## VS Code[\s\S]*?```json\n([\s\S]*?)```/.exec(doc)![1]!);
    for (const example of [read('editors/vscode/launch.json'), shown]) {
      const [config] = example.configurations;
      expect(config).toMatchObject({ type: 'txray', request: 'launch' });
      for (const key of Object.keys(config)) expect(['type', 'request', 'name', ...LAUNCH]).toContain(key);
    }
  });

  test('the extension registers an adapter that runs `txray debug --dap` in the launch\'s cwd', () => {
    const made: Array<{ command: string; args: string[]; options?: { cwd: string } }> = [];
    let factory: { createDebugAdapterDescriptor(session: unknown): unknown } | undefined;
    const vscode = {
      DebugAdapterExecutable: class {
        constructor(command: string, args: string[], options?: { cwd: string }) {
          made.push({ command, args, ...(options === undefined ? {} : { options }) });
        }
      },
      debug: { registerDebugAdapterDescriptorFactory: (type: string, f: typeof factory) => (type === 'txray' ? (factory = f) : undefined) },
      workspace: { getConfiguration: () => ({ get: () => undefined }) },
    };
    // The `vscode` module exists only inside VS Code: the stand-in is what the extension's require gets.
    const load = (Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown })._load;
    (Module as unknown as { _load: typeof load })._load = (request, ...rest) => (request === 'vscode' ? vscode : load(request, ...rest));
    try {
      const extension = createRequire(import.meta.url)('../../editors/vscode/extension.js');
      extension.activate({ subscriptions: [] });
    } finally {
      (Module as unknown as { _load: typeof load })._load = load;
    }
    const project = join(tmpdir(), 'project');
    const folder = join(tmpdir(), 'folder');
    factory!.createDebugAdapterDescriptor({ configuration: { cwd: project }, workspaceFolder: undefined });
    factory!.createDebugAdapterDescriptor({ configuration: {}, workspaceFolder: { uri: { fsPath: folder } } });
    expect(made).toEqual([
      { command: 'txray', args: ['debug', '--dap'], options: { cwd: project } },
      { command: 'txray', args: ['debug', '--dap'], options: { cwd: folder } },
    ]);
  });

  test('it is not in the npm package: package.json ships bin, dist and schema only', () => {
    expect(read('package.json').files).toEqual(['bin', 'dist', 'schema']);
  });
});
