'use strict';
// The txray debug type: VS Code runs `txray debug --dap` in the project's folder and speaks the Debug
// Adapter Protocol with it over stdin and stdout. Plain JavaScript, no build step.
const vscode = require('vscode');

/** The adapter for one debug session: the configured txray command, in the launch's cwd (else the workspace folder). */
function descriptorFor(session) {
  const command = vscode.workspace.getConfiguration('txray').get('path') || 'txray';
  const cwd = session.configuration.cwd || (session.workspaceFolder && session.workspaceFolder.uri.fsPath);
  return new vscode.DebugAdapterExecutable(command, ['debug', '--dap'], cwd ? { cwd } : undefined);
}

function activate(context) {
  context.subscriptions.push(vscode.debug.registerDebugAdapterDescriptorFactory('txray', { createDebugAdapterDescriptor: descriptorFor }));
}

function deactivate() {}

module.exports = { activate, deactivate };
