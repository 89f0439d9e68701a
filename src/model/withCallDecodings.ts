/**
 * A model whose calls carry more names, without touching the one it was made from: the tree is copied,
 * each named call gaining its fields in the copy, and what points at a call (the failure's origin, the
 * events placed under calls, the gas profile's stacks) points at its copy.
 */
import type { CallDecoding, CallNode, InspectModel } from './types.js';
import { walkCalls } from './walk.js';

export function withCallDecodings(model: InspectModel, added: ReadonlyMap<CallNode, CallDecoding>): InspectModel {
  if (model.tree === null || added.size === 0) return model;
  const copies = new Map<CallNode, CallNode>();
  walkCalls(model.tree.root, (n, parent) => {
    const more = added.get(n);
    const copy: CallNode = { ...n, children: [], ...(more === undefined ? {} : { decoded: { ...n.decoded, ...more } }) };
    copies.set(n, copy);
    if (parent !== null) copies.get(parent)?.children.push(copy);
  });
  const to = (n: CallNode): CallNode => copies.get(n) ?? n;
  const profile = model.decoded?.gasProfile;
  return {
    ...model,
    tree: { ...model.tree, root: to(model.tree.root) },
    events: model.events === null ? null : new Map([...model.events].map(([n, e]) => [to(n), e])),
    failure: model.failure === null || model.failure.origin === null ? model.failure : { ...model.failure, origin: to(model.failure.origin) },
    ...(model.decoded === undefined || profile === undefined ? {} : { decoded: { ...model.decoded, gasProfile: { ...profile, folded: profile.folded.map((f) => ({ ...f, stack: f.stack.map((x) => ('children' in x ? to(x) : x)) })) } } }),
  };
}
