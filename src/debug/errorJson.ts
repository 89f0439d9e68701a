/**
 * `txray debug … --json`: the document printed where no step can be shown (no step matches `--at`, the
 * transaction is unknown or not mined, the node failed, bad input), so that a script reads JSON on stdout
 * whatever happened. The same error as the line on stderr; its code as the lookup's error document names it.
 */
export interface DebugErrorJson {
  readonly schemaVersion: 1;
  readonly hash: string | null;
  readonly error: { readonly code: string; readonly message: string };
}

export function errorJson(hash: string | null, code: string, message: string): DebugErrorJson {
  return { schemaVersion: 1, hash, error: { code, message } };
}
