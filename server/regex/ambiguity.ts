// Whether a backtracking matcher can take more than linear time on a pattern, read from its
// position automaton (positions.ts) by following two paths at once over the same text:
// - two paths that part and meet again are two ways to match the same text, and a backtracking
//   matcher tries every way before it fails: exponential when both ways go around one loop
//   (`(a+)+`, `(a|a)*`), more than linear otherwise (`\s*\s*`), or a constant factor that grows
//   with the pattern (`(a|a){30}`), all refused alike;
// - a search tries the pattern again at every position of the text: when an attempt begun later
//   can meet one begun earlier in a loop, neither having matched, the later one goes over the same
//   text again, and the search takes time quadratic in the text's length (`a+b`, `foo.*bar`).
// Without either, a search follows at most one path per position of the pattern and per
// character of the text: linear time.
import type { WorkBudget } from './budget.js';
import type { PositionAutomaton } from './positions.js';
import type { Label } from './syntax.js';

export type SuperLinearCause =
  /** Two ways to match the same text around one loop. */
  | 'exponential'
  /** Two ways to match the same text. */
  | 'ambiguous'
  /** Attempts at different positions go over the same text. */
  | 'restarts';

export interface SuperLinearFinding {
  cause: SuperLinearCause;
  /** The lookaround where it was found, when not in the pattern itself. */
  lookaround?: string;
}

/** What following one pair of paths one step costs, in steps: the unit of every other cost. */
const STEPS_PER_PAIR = 4;

class Graph {
  private readonly overlaps = new Map<number, boolean>();
  /** The successors of each state. */
  readonly successors: number[][];

  constructor(
    readonly automaton: PositionAutomaton,
    private readonly budget: WorkBudget,
  ) {
    this.successors = automaton.next.map((ways) => Array.from(ways.keys()));
    budget.spend(this.successors.reduce((sum, next) => sum + next.length, 0));
  }

  get size(): number {
    return this.automaton.labels.length;
  }

  /**
   * Whether positions a and b can read the same character (or the same mark). Both are positions:
   * the start state (0), which reads nothing, follows no state. A mark is a negative number, which
   * no set of characters has.
   */
  overlap(a: number, b: number): boolean {
    const labelA = this.automaton.labels[a] as Label;
    const labelB = this.automaton.labels[b] as Label;
    if (typeof labelA === 'number') return typeof labelB === 'number' ? labelA === labelB : labelB.has(labelA);
    if (typeof labelB === 'number') return labelA.has(labelB);
    const key = a < b ? a * this.size + b : b * this.size + a;
    const known = this.overlaps.get(key);
    if (known !== undefined) return known;
    this.budget.spend(2 + labelA.ranges.length + labelB.ranges.length);
    const result = !labelA.isDisjointWith(labelB);
    this.overlaps.set(key, result);
    return result;
  }
}

/** Strongly connected components (Tarjan's, without recursion) of the states that `keep` admits. */
function components(graph: Graph, keep: (state: number) => boolean, budget: WorkBudget): Int32Array {
  const size = graph.size;
  budget.spend(graph.successors.reduce((sum, next) => sum + 1 + next.length, 0));
  const component = new Int32Array(size).fill(-1);
  const index = new Int32Array(size).fill(-1);
  const low = new Int32Array(size);
  const onStack = new Uint8Array(size);
  const stack: number[] = [];
  let counter = 0;
  let components = 0;
  for (const root of graph.successors.keys()) {
    if (!keep(root) || index[root] !== -1) continue;
    const frames: { state: number; edge: number }[] = [];
    const open = (state: number) => {
      index[state] = low[state] = counter++;
      stack.push(state);
      onStack[state] = 1;
      frames.push({ state, edge: 0 });
    };
    open(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1] as (typeof frames)[number];
      const to = (graph.successors[frame.state] as number[])[frame.edge];
      if (to !== undefined) {
        frame.edge++;
        if (!keep(to)) continue;
        if (index[to] === -1) open(to);
        else if (onStack[to]) low[frame.state] = Math.min(low[frame.state] as number, index[to] as number);
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low[parent.state] = Math.min(low[parent.state] as number, low[frame.state] as number);
      if (low[frame.state] === index[frame.state]) {
        let member: number;
        do {
          member = stack.pop() as number;
          onStack[member] = 0;
          component[member] = components;
        } while (member !== frame.state);
        components++;
      }
    }
  }
  return component;
}

/**
 * Two paths from a common state, over the same text, that meet again; with `within`, only paths
 * that stay inside one component (two ways around the same loop).
 */
function meetingPaths(graph: Graph, budget: WorkBudget, within?: Int32Array): boolean {
  const size = graph.size;
  const seen = new Set<number>();
  const queue: number[] = [];
  const inside = (state: number, component: number) => within === undefined || within[state] === component;
  // Follows a step of both paths; true when it takes them to one state.
  const visit = (a: number, b: number, component: number): boolean => {
    budget.spend(STEPS_PER_PAIR);
    if (!inside(a, component) || !inside(b, component) || !graph.overlap(a, b)) return false;
    if (a === b) return true;
    const key = a < b ? a * size + b : b * size + a;
    if (!seen.has(key)) {
      seen.add(key);
      queue.push(a, b);
    }
    return false;
  };
  // States with the same successors (the ends of a repetition's alternatives) part in the same ways.
  const parted = new Set<string>();
  for (let state = 0; state < size; state++) {
    const component = within?.[state] ?? 0;
    const next = graph.successors[state] as number[];
    if (next.some((to) => inside(to, component) && twoWaysTo(graph, state, to))) return true;
    if (next.length < 2) continue;
    budget.spend(next.length);
    // The successors as text, joined by commas (String of an array).
    const key = `${component}:${String(next)}`;
    if (parted.has(key)) continue;
    parted.add(key);
    // Two successors are two states: their pair is queued, it has not met yet.
    for (const [i, a] of next.entries()) for (const b of next.slice(i + 1)) visit(a, b, component);
  }
  for (let at = 0; at < queue.length; at += 2) {
    const a = queue[at] as number;
    const b = queue[at + 1] as number;
    const component = within?.[a] ?? 0;
    for (const nextA of graph.successors[a] as number[])
      for (const nextB of graph.successors[b] as number[]) if (visit(nextA, nextB, component)) return true;
  }
  return false;
}

function twoWaysTo(graph: Graph, from: number, to: number): boolean {
  return (graph.automaton.next[from]?.get(to) ?? 0) > 1;
}

/**
 * An attempt begun later (from `searching`, which stands for every later position of the text)
 * that meets, in one loop, an attempt begun earlier, neither having reached a state where the
 * match succeeds; marks (`^`, `$`) are left out, as a text has them only at its ends.
 */
function restartsMeet(graph: Graph, budget: WorkBudget): boolean {
  const { automaton } = graph;
  const alive = (state: number) => {
    const label = automaton.labels[state];
    const readsCharacters = typeof label === 'number' ? label >= 0 : label !== undefined && !label.isEmpty;
    return readsCharacters && !automaton.final[state];
  };
  const component = components(graph, alive, budget);
  const searching = graph.size;
  const width = graph.size + 1;
  const loops = new Map<number, number[]>();
  for (const state of graph.successors.keys()) {
    if (!alive(state)) continue;
    const own = component[state] as number;
    const looping = (graph.successors[state] as number[]).some((to) => component[to] === own);
    if (looping) loops.set(own, [...(loops.get(own) ?? []), state]);
  }
  const entries = graph.successors[0] as number[];
  for (const [own, members] of loops) {
    const seen = new Set<number>();
    const queue: number[] = [];
    const visit = (later: number, earlier: number): boolean => {
      budget.spend(STEPS_PER_PAIR);
      if (later === earlier) return true;
      const key = later * width + earlier;
      if (!seen.has(key)) {
        seen.add(key);
        queue.push(later, earlier);
      }
      return false;
    };
    for (const member of members) visit(searching, member);
    for (let at = 0; at < queue.length; at += 2) {
      const later = queue[at] as number;
      const earlier = queue[at + 1] as number;
      const laterNext = later === searching ? [searching, ...entries] : (graph.successors[later] as number[]);
      for (const nextEarlier of graph.successors[earlier] as number[]) {
        if (component[nextEarlier] !== own) continue;
        for (const nextLater of laterNext) {
          if (nextLater !== searching && !(alive(nextLater) && graph.overlap(nextLater, nextEarlier))) continue;
          if (visit(nextLater, nextEarlier)) return true;
        }
      }
    }
  }
  return false;
}

function ambiguity(graph: Graph, budget: WorkBudget): SuperLinearCause | undefined {
  if (graph.automaton.repeatsEmptyTwice) return 'ambiguous';
  if (!meetingPaths(graph, budget)) return undefined;
  const loops = components(graph, () => true, budget);
  return meetingPaths(graph, budget, loops) ? 'exponential' : 'ambiguous';
}

/**
 * Why a search for the pattern can take more than linear time in a backtracking matcher, or
 * undefined when it cannot. Lookarounds are checked as patterns of their own, tried in place.
 */
export function superLinearCause(automaton: PositionAutomaton, budget: WorkBudget): SuperLinearFinding | undefined {
  const graph = new Graph(automaton, budget);
  const own = ambiguity(graph, budget);
  if (own) return { cause: own };
  for (const { raw, automaton: body } of automaton.lookarounds) {
    const cause = ambiguity(new Graph(body, budget), budget);
    if (cause) return { cause, lookaround: raw };
  }
  if (automaton.loops && !automaton.matchesEmpty && restartsMeet(graph, budget)) return { cause: 'restarts' };
  return undefined;
}
