import type { Hex } from './types.js';

/** Hex in lower case, as addresses, topics and selectors are compared: the same digits, still Hex. */
export const lowerHex = (h: Hex): Hex => `0x${h.slice(2).toLowerCase()}`;
