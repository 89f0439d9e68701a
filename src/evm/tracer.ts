/**
 * The one tracer of txray's EVM: it watches the embedded EVM's messages and a few opcodes, and keeps
 * what a TracerConfig asks for. Its frames (the calls as the EVM made them, each log in the order it was
 * emitted) are turned into the model's call tree by callTreeOf.ts, with no node's answer in between;
 * what only the EVM knows of each frame (where it stopped, its last jumps) goes beside the tree as
 * FrameFacts keyed by frameKey; every step, when asked for, goes into a StepLog. The tree is always kept,
 * so the call opcodes and SELFDESTRUCT are always hooked; the other parts are hooked only when asked for
 * (the LOG opcodes, the halting ones, JUMP and JUMPI, the step event), and cost nothing otherwise.
 */
import type { Message } from '@ethereumjs/evm';
import type { VM } from '@ethereumjs/vm';
import { frameKey } from '../model/frameKey.js';
import type { FrameLog } from '../raw/parseCallTrace.js';
import { bytesToHex } from './evmEngine.js';
import { addressOf, type Hex, type OpEntry, type OpRunState, opcodeTable, wrapOpcode } from './localEvm.js';
import { createStepLog, type StepEvent, type StepLog, type StepLogWriter } from './stepLog.js';
import { hookStorage, type StorageRecord, StorageRecording } from './storageTrace.js';

/** What a run keeps beyond the call tree (always kept: the other parts are keyed by its frames). */
export interface TracerConfig {
  /** Each frame's logs, at their place among its calls. */
  readonly logs: boolean;
  /** Where each frame stopped, and whose code ran (FrameFacts). */
  readonly exits: boolean;
  /** Each frame's last taken jumps (FrameFacts). */
  readonly jumps: boolean;
  /** Every opcode: pc, opcode, depth, gas, stack, memory and storage as they change (a StepLog). */
  readonly steps: boolean;
  /** The accounts and storage the run changed, before and after (the prestateTracer's diff). */
  readonly stateDiff: boolean;
  /** Every SLOAD, SSTORE, TLOAD and TSTORE by frame, and the KECCAK256 inputs (a StorageRecord). */
  readonly storage?: boolean;
  /** The frames that keep every JUMP they take, with the gas left (FrameFacts.trail): what their internal calls are read from. */
  readonly trailOf?: TrailFilter;
}

/** Whether a frame keeps a JumpTrail, by the code it runs: asked once per frame, when it first needs one. */
export type TrailFilter = (code: { readonly address: string; readonly bytecode: Hex }) => boolean;

/** What a run records unless asked otherwise: the call tree with its logs. */
export const TREE_ONLY: TracerConfig = { logs: true, exits: false, jumps: false, steps: false, stateDiff: false };

/**
 * One frame as the EVM ran it. `type` is the opcode that made it (CALL, STATICCALL, DELEGATECALL,
 * CALLCODE, CREATE, CREATE2, SELFDESTRUCT); a delegatecall's `from` is the contract that made it and its
 * `to` the code it ran (as geth's callTracer names them); a create's `to` is the created address, null
 * where it failed.
 */
export interface EvmFrame {
  readonly type: string;
  readonly from: Hex;
  to: Hex | null;
  /** null for a STATICCALL (it carries no value). */
  readonly value: bigint | null;
  gas: bigint | null;
  gasUsed: bigint | null;
  readonly input: Hex;
  output: Hex | null;
  error: string | null;
  readonly calls: EvmFrame[];
}

/** What the EVM knows of one frame beyond its call (where it stopped, its last jumps, whose code ran), keyed by frameKey(traceAddress). */
export interface FrameFacts {
  /** The pc of the opcode the frame stopped at (its code's length where it ran off the end); null where the EVM ran no code (a precompile, an account without code). */
  exitPc: number | null;
  /** The destinations of its last taken JUMP and JUMPI, oldest first: the last LAST_JUMPS at least, twice that at most. */
  readonly lastJumps: number[];
  /** The pc of each of those jumps (the JUMP or JUMPI itself), same order. */
  readonly lastJumpsFrom: number[];
  /** The account whose code ran (a delegatecall's library, a created contract). */
  codeAddress: string;
  /** Every JUMP the frame took, where TracerConfig.trailOf takes its code. */
  trail?: JumpTrail;
  /** How many JUMPs its caller's trail held when this frame began (where the caller kept one): where the call was made among them. */
  readonly calledAt?: number;
}

/** Every JUMP a frame took, in order: from which pc, to which, and the gas left as it jumped (the JUMP's own cost paid). */
export interface JumpTrail {
  readonly from: number[];
  readonly to: number[];
  readonly gas: number[];
  /** For each log the frame emitted, in order: how many JUMPs it had taken then. */
  readonly logs: number[];
  /** The gas the frame was given, and what was left when it ended (null while it runs). */
  readonly gasLimit: number;
  endGas: number | null;
}

/**
 * Unoptimized code makes a jump into and out of a helper for each checked operation and each value it
 * encodes, so the calls that led to a failure lie many jumps back: enough are kept to reach them.
 */
export const LAST_JUMPS = 64;

/** The call kind of a message: the opcode that made it, where the run saw it. */
function kindOf(m: Message, parentStatic: boolean, opcode: string | undefined): string {
  if (m.to === undefined) return m.salt !== undefined ? 'CREATE2' : 'CREATE';
  if (opcode !== undefined) return opcode;
  if (m.delegatecall) return 'DELEGATECALL';
  if (m.codeAddress !== undefined && !m.codeAddress.equals(m.to)) return 'CALLCODE';
  if (m.isStatic && !parentStatic) return 'STATICCALL';
  return 'CALL';
}

/** A frame while it runs, with what the tree does not carry. */
interface Running {
  readonly frame: EvmFrame;
  /** A static context (its children are static too). */
  readonly static: boolean;
  readonly traceAddress: readonly number[];
  readonly facts: FrameFacts | null;
  /** Its message: its code, once the EVM loaded it (after the message began). */
  readonly message: Message;
  /** Whether trailOf was asked about it yet. */
  trailAsked: boolean;
}

type MessageEnd = {
  execResult: { executionGasUsed: bigint; returnValue: Uint8Array; exceptionError?: { error: string }; runState?: { programCounter: number; opCode: number } };
  createdAddress?: { toString(): string };
};

/** STOP, RETURN, REVERT, SELFDESTRUCT: the opcodes that end a frame by running. */
const HALTS = [0x00, 0xf3, 0xfd, 0xff] as const;
const CALL_NAMES = [[0xf1, 'CALL'], [0xf2, 'CALLCODE'], [0xf4, 'DELEGATECALL'], [0xfa, 'STATICCALL']] as const;

/** What one run recorded: each part asked for, else null. */
export interface TracedRun<T> {
  /** The top frame, with its calls below it. */
  readonly frame: EvmFrame | null;
  /** Every log, in the order it was emitted (a failed frame's too), when asked for. */
  readonly logs: readonly FrameLog[];
  readonly result: T;
  readonly facts: ReadonlyMap<string, FrameFacts> | null;
  readonly steps: StepLog | null;
  readonly storage: StorageRecord | null;
}

export interface Tracer {
  /** Run `go` with the tracer listening. */
  trace<T>(go: () => Promise<T>): Promise<TracedRun<T>>;
}

/** One run's tree as it grows: the frames, the ones still running, and the facts when asked for. */
class Tracing {
  readonly top: EvmFrame[] = [];
  readonly stack: Running[] = [];
  readonly logs: FrameLog[] = [];
  /** The last call opcode the running frame executed: the one that makes the next message. */
  lastOp: string | undefined;

  constructor(
    private readonly table: Array<OpEntry | undefined>,
    readonly facts: Map<string, FrameFacts> | null,
    /** Where each frame stopped is asked for. */
    private readonly exits: boolean,
    /** The frames that keep a JumpTrail. */
    private readonly trailFilter: TrailFilter | undefined,
    /** Every step is asked for: the log learns which frame each runs in. */
    private readonly steps: StepLogWriter | null,
    /** Storage accesses are asked for. */
    readonly storage: StorageRecording | null,
  ) {}

  running(): Running | undefined {
    return this.stack.at(-1);
  }

  /**
   * The frame's JumpTrail, where trailOf takes its code. Asked at its first JUMP, log, call or end: its
   * code is loaded after its message began, and before it runs any of them.
   */
  trailOf(running: Running | undefined): JumpTrail | undefined {
    const facts = running?.facts;
    if (running === undefined || facts == null) return undefined;
    if (!running.trailAsked) {
      running.trailAsked = true;
      const code = running.message.code;
      if (this.trailFilter !== undefined && code instanceof Uint8Array && code.length > 0 && this.trailFilter({ address: facts.codeAddress, bytecode: bytesToHex(code) })) {
        facts.trail = { from: [], to: [], gas: [], logs: [], gasLimit: Number(running.message.gasLimit), endGas: null };
      }
    }
    return facts.trail;
  }

  begin(m: Message): void {
    const parent = this.running();
    const type = kindOf(m, parent?.static === true, parent === undefined ? undefined : this.lastOp);
    this.lastOp = undefined;
    const context = type === 'DELEGATECALL' || type === 'CALLCODE';
    const frame: EvmFrame = {
      type,
      // A delegatecall's message keeps the original caller; geth names the contract that made the call (its context).
      from: addressOf(context ? m.to! : m.caller),
      to: m.to === undefined ? null : addressOf(context ? (m.codeAddress ?? m.to) : m.to),
      value: type === 'STATICCALL' ? null : m.value,
      gas: m.gasLimit,
      gasUsed: null,
      input: bytesToHex(m.data),
      output: null,
      error: null,
      calls: [],
    };
    const siblings = parent === undefined ? this.top : parent.frame.calls;
    // Its index among its parent's calls (a selfdestruct counts: it is a call in the tree).
    const traceAddress = parent === undefined ? [] : [...parent.traceAddress, siblings.length];
    let own: FrameFacts | null = null;
    if (this.facts !== null) {
      // (A create's message has no code address: EthereumJS's getter throws; its new address is set at its end.)
      const codeAddress = m.to === undefined ? '' : m.codeAddress.toString().toLowerCase();
      const calledAt = this.trailOf(parent)?.from.length;
      this.facts.set(frameKey(traceAddress), (own = { exitPc: null, lastJumps: [], lastJumpsFrom: [], codeAddress, ...(calledAt === undefined ? {} : { calledAt }) }));
    }
    siblings.push(frame);
    this.stack.push({ frame, static: m.isStatic, traceAddress, facts: own, message: m, trailAsked: false });
    this.steps?.enter(traceAddress);
    this.storage?.enter(frameKey(traceAddress));
  }

  end(r: MessageEnd): void {
    const running = this.stack.pop();
    if (running === undefined) return;
    this.steps?.leave();
    const { frame } = running;
    const e = r.execResult;
    this.storage?.leave(e.exceptionError !== undefined);
    frame.gasUsed = e.executionGasUsed;
    const created = frame.type.startsWith('CREATE') && e.exceptionError === undefined;
    if (e.returnValue.length > 0 && !created) frame.output = bytesToHex(e.returnValue);
    if (created) {
      frame.to = r.createdAddress === undefined ? null : addressOf(r.createdAddress);
      frame.output = bytesToHex(e.returnValue);
    }
    if (e.exceptionError !== undefined) frame.error = e.exceptionError.error === 'revert' ? 'execution reverted' : e.exceptionError.error;
    if (running.facts === null) return;
    const trail = this.trailOf(running);
    if (trail !== undefined) trail.endGas = trail.gasLimit - Number(e.executionGasUsed);
    if (created && frame.to !== null) running.facts.codeAddress = frame.to;
    if (this.exits) running.facts.exitPc ??= exitPcOf(this.table, r);
  }
}

/**
 * Where a frame stopped that no halting opcode said (it failed, or ran off the end of its code), read
 * from the run state it left; null where it ran no code.
 */
function exitPcOf(table: Array<OpEntry | undefined>, r: MessageEnd): number | null {
  const run = r.execResult.runState;
  if (run === undefined) return null;
  const error = r.execResult.exceptionError;
  // Nothing failed and no halting opcode ran: it ran off the end of its code.
  if (error === undefined) return run.programCounter;
  // EthereumJS advances the counter after the gas charge and before the handler: the charge's failures
  // (out of gas, a dynamic gas check) and an invalid opcode leave it on the opcode.
  const info = table[run.opCode]?.opcodeInfo;
  const before = info === undefined || info.dynamicGas || info.isInvalid || error.error === 'out of gas';
  return before ? run.programCounter : run.programCounter - 1;
}

/** Hook the opcodes the config asks for: they read `now()`, the run under way. */
function hookOpcodes(vm: VM, now: () => Tracing | null, config: TracerConfig): void {
  const running = (): Running | undefined => now()?.running();
  for (const [op, name] of CALL_NAMES) {
    wrapOpcode(vm, op, () => {
      const rec = now();
      if (rec !== null) rec.lastOp = name;
    }, null);
  }
  // A log's place among its frame's calls.
  if (config.logs) for (let op = 0xa0; op <= 0xa4; op++) wrapOpcode(vm, op, null, (r) => logOf(now(), r));
  // A selfdestruct is a call of its own in the tree (as in geth's callTracer): to the beneficiary, with the balance.
  wrapOpcode(vm, 0xff, (r) => selfdestructOf(running()?.frame, r), null);
  // Inside a handler the counter has already moved past the opcode.
  if (config.exits) {
    for (const op of HALTS) {
      wrapOpcode(vm, op, (r) => {
        const f = running()?.facts;
        if (f != null) f.exitPc = r.programCounter - 1;
      }, null);
    }
  }
  if (config.storage === true) hookStorage((op, before, after) => wrapOpcode(vm, op, before, after), () => now()?.storage ?? null);
  if (!config.jumps && config.trailOf === undefined) return;
  // A JUMPI not taken leaves the counter on the next opcode.
  let fallThrough = -1;
  wrapOpcode(vm, 0x56, (r) => void (fallThrough = r.programCounter), (r) => {
    const frame = running();
    if (config.jumps) jumped(frame?.facts, fallThrough - 1, r.programCounter);
    const trail = now()?.trailOf(frame);
    if (trail !== undefined) {
      trail.from.push(fallThrough - 1);
      trail.to.push(r.programCounter);
      trail.gas.push(Number(r.gasLeft));
    }
  });
  if (!config.jumps) return;
  wrapOpcode(vm, 0x57, (r) => void (fallThrough = r.programCounter), (r) => {
    if (r.programCounter !== fallThrough) jumped(running()?.facts, fallThrough - 1, r.programCounter);
  });
}

/**
 * Attach the tracer to `vm`, configured once: its opcode hooks stay (they do nothing outside
 * `trace`); what the config leaves out is not hooked (JUMP, JUMPI and the halting opcodes run
 * untouched without exits, jumps and trails, and without steps the EVM emits no step event at all).
 */
export function attachTracer(vm: VM, config: TracerConfig): Tracer {
  let current: Tracing | null = null;
  let steps: StepLogWriter | null = null;
  hookOpcodes(vm, () => current, config);
  // One parameter each: EthereumJS calls a listener of two with a callback to wait for, behind a
  // promise and a turn of the microtask queue at every frame's start and end; these have nothing to wait for.
  const onBefore = (m: Message): void => current?.begin(m);
  const onAfter = (r: MessageEnd): void => current?.end(r);
  const onStep = (e: StepEvent): void => steps?.add(e);
  const events = vm.evm.events;
  if (events === undefined) throw new Error('the EVM has no events to trace');
  return {
    async trace(go) {
      steps = config.steps ? createStepLog() : null;
      const rec = new Tracing(opcodeTable(vm), config.exits || config.jumps || config.trailOf !== undefined ? new Map() : null, config.exits, config.trailOf, steps, config.storage === true ? new StorageRecording() : null);
      current = rec;
      events.on('beforeMessage', onBefore);
      events.on('afterMessage', onAfter);
      if (config.steps) events.on('step', onStep);
      try {
        const result = await go();
        return { frame: rec.top[0] ?? null, logs: rec.logs, result, facts: rec.facts, steps, storage: rec.storage?.done() ?? null };
      } finally {
        events.off('beforeMessage', onBefore);
        events.off('afterMessage', onAfter);
        if (config.steps) events.off('step', onStep);
        current = null;
        steps = null;
      }
    },
  };
}


function logOf(rec: Tracing | null, r: OpRunState): void {
  const running = rec?.running();
  const log = r.interpreter._result.logs.at(-1);
  if (rec == null || running === undefined || log === undefined) return;
  const [address, topics, data] = log;
  const trail = rec.trailOf(running);
  trail?.logs.push(trail.from.length);
  rec.logs.push({ traceAddress: running.traceAddress, position: running.frame.calls.length, address: bytesToHex(address), topics: topics.map((x) => bytesToHex(x)), data: bytesToHex(data) });
}

function selfdestructOf(frame: EvmFrame | undefined, r: OpRunState): void {
  if (frame === undefined) return;
  const [to] = r.stack.peek(1);
  const beneficiary: Hex = `0x${to!.toString(16).padStart(40, '0')}`;
  const env = r.interpreter._env;
  frame.calls.push({ type: 'SELFDESTRUCT', from: addressOf(env.address), to: beneficiary, value: env.contract.balance, gas: 0n, gasUsed: 0n, input: '0x', output: null, error: null, calls: [] });
}

function jumped(facts: FrameFacts | null | undefined, from: number, destination: number): void {
  if (facts === null || facts === undefined) return;
  facts.lastJumps.push(destination);
  facts.lastJumpsFrom.push(from);
  // Cut in halves rather than one by one: a long loop makes millions of jumps.
  if (facts.lastJumps.length >= 2 * LAST_JUMPS) {
    facts.lastJumps.splice(0, LAST_JUMPS);
    facts.lastJumpsFrom.splice(0, LAST_JUMPS);
  }
}
