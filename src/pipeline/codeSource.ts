/** `--override-code`'s code, as cli/parseOverrideCode.ts reads it and the call's plan resolves it. */
import type { Hex } from '../raw/types.js';

/** An artifact's runtime code and the byte ranges each deployment fills in ([start, length]). */
export interface ArtifactCode {
  readonly name: string;
  readonly code: Hex;
  readonly masks: ReadonlyArray<readonly [number, number]>;
}

/** Where one override's code comes from: given (hex, a hex file), an artifact file, or a project contract's name. */
export type CodeSource =
  | { readonly kind: 'hex'; readonly code: Hex }
  | { readonly kind: 'artifact'; readonly file: string; readonly artifact: ArtifactCode }
  | { readonly kind: 'name'; readonly name: string };
