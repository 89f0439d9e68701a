/** An address's name as every view says it (unescaped): its label, and its tag where the label alone is ambiguous in the view ("Token(DAI)"). */
import type { DecodedModel } from '../model/types.js';

export function shownName(decoded: Pick<DecodedModel, 'labels' | 'instances'> | undefined, address: string): string | undefined {
  const lower = address.toLowerCase();
  const label = decoded?.labels.get(lower);
  if (label === undefined) return undefined;
  const tag = decoded?.instances?.get(lower);
  return tag === undefined ? label : `${label}(${tag})`;
}
