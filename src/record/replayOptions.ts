/**
 * The options `txray replay` takes besides its file: the view options (how the answers are shown, never
 * what is asked; --state is checked against the recording), and --record. Read by the replay and by the
 * shell completions, which take their definitions from the lookup's.
 */
export const REPLAY_OPTIONS = {
  flags: new Set(['--json', '--color', '--no-color', '--state', '--gas', '--full', '-q', '--quiet', '--debug']),
  valued: new Set(['--gas-out', '--html', '--as']),
  /** Besides the views: a replay recorded again. */
  record: '--record',
} as const;
