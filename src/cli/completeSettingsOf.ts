/** The settings of the stages after the model (pipeline/completeModel.ts), as the options ask, for a lookup's inputs and a block's transactions alike. */
import type { CompleteSettings } from '../pipeline/completeModel.js';
import type { Io } from './io.js';
import type { InspectOptions } from './parseOptions.js';
import type { RunLog } from './runLog.js';

/** `showsGasProfile`: a view of this command shows it (the profile is made once, only then); `tag` prefixes --debug's lines. */
export function completeSettingsOf(opts: InspectOptions, io: Io, log: RunLog, showsGasProfile: boolean, tag = ''): CompleteSettings {
  return {
    timeoutMs: opts.timeoutMs,
    needsGasProfile: showsGasProfile,
    warnPartialGas: opts.gas || opts.gasOut !== undefined,
    internal: opts.internal,
    storage: opts.storage,
    // Every view shows amounts (the transfers, the action, the many-hashes summary, the report's
    // fund flow); --quiet prints none, but its --html page still does.
    tokenAmounts: !opts.quiet || opts.html !== undefined,
    // --as: the action from that address's view.
    actor: opts.actor,
    online: opts.online,
    interrupt: io.interrupt,
    debug: opts.debug ? (line) => log.debug(`${tag}${line}`) : undefined,
  };
}
