// The automaton of a regular expression whose paths are the choices a backtracking matcher can
// make: one state per position (a character, class or escape that reads one character, once per
// copy of a counted repetition), and for each state the positions that can come next, with the
// number of ways to get there (counted up to 2: two ways to the same place is already an
// ambiguity). Unlike a plain position automaton, `(a+)+` keeps its two ways from `a` back to `a`.
// `^` and `$` (without the m flag) read marks that stand before and after the text; `\b`, `\B` and
// lookarounds read nothing and may fail, so nothing after them is sure to match.
import type { AST } from '@eslint-community/regexpp';
import { UncheckablePattern, type WorkBudget } from './budget.js';
import {
  classLabel,
  type Flags,
  hasUnboundedRepetition,
  type Label,
  parsePattern,
  TEXT_END,
  TEXT_START,
  withModifiers,
} from './syntax.js';

/** Position → ways to reach it, at most 2. */
export type Ways = Map<number, number>;

export interface PositionAutomaton {
  /** The label of each position; index 0 is the start, before any position, and reads nothing. */
  labels: (Label | undefined)[];
  /** next[0]: the positions a match can begin with; next[p]: those that can follow position p. */
  next: Ways[];
  /** Positions after which the match is sure to succeed: the rest can match nothing, with no assertion in the way. */
  final: boolean[];
  /** Whether the pattern surely matches the empty text, wherever it is tried. */
  matchesEmpty: boolean;
  /** Whether it repeats anything without bound: without, no path can come back to where it was. */
  loops: boolean;
  /**
   * Whether a repeated or optional part can match the empty text in two ways: each way is tried,
   * and refused as an empty iteration, before the matcher moves on, a cost no position shows.
   */
  repeatsEmptyTwice: boolean;
  /** The bodies of its lookarounds, each an automaton of its own. */
  lookarounds: { raw: string; automaton: PositionAutomaton }[];
}

/** What a part of the pattern contributes: how it can begin and end, and whether it can match nothing. */
interface Fragment {
  /** Ways to match the empty text (an assertion counts as one way), at most 2. */
  empty: number;
  /** Whether it surely matches the empty text: with no assertion in the way. */
  surelyEmpty: boolean;
  first: Ways;
  last: Ways;
  /** The positions of `last` after which nothing but surely empty parts remain. */
  surelyLast: Set<number>;
}

function emptyFragment(surelyEmpty: boolean): Fragment {
  return { empty: 1, surelyEmpty, first: new Map(), last: new Map(), surelyLast: new Set() };
}

/** Adds `ways` (at least 1) to the ways to reach `position`. */
function addWays(into: Ways, position: number, ways: number): void {
  into.set(position, Math.min(2, (into.get(position) ?? 0) + ways));
}

/** What a position costs, from its reading to its last check, in steps of following a pair of paths. */
const STEPS_PER_POSITION = 2;
/** What a part of the pattern costs as it is put together with the rest, besides its positions and links. */
const STEPS_PER_FRAGMENT = 4;
/** What a lookaround costs besides its positions: an automaton and its checks of its own. */
const STEPS_PER_LOOKAROUND = 128;
/** What one way from a position to the next costs as it is recorded. */
const STEPS_PER_LINK = 4;

class Builder {
  readonly labels: (Label | undefined)[] = [undefined];
  readonly next: Ways[] = [new Map()];
  readonly lookarounds: PositionAutomaton['lookarounds'] = [];
  private repeatsEmptyTwice = false;
  private loops = false;

  constructor(
    private readonly budget: WorkBudget,
    private readonly maxPositions: number,
    /** The labels of the classes read so far, by flags and text, shared with the lookarounds' builders. */
    private readonly classes = new Map<string, Label>(),
  ) {}

  /** A new position; its own successors are empty until linked. */
  private newPosition(label: Label): number {
    if (this.labels.length > this.maxPositions)
      throw new UncheckablePattern({ kind: 'too many positions', limit: this.maxPositions });
    this.budget.spend(STEPS_PER_POSITION);
    this.labels.push(label);
    this.next.push(new Map());
    return this.labels.length - 1;
  }

  private position(label: Label): Fragment {
    const id = this.newPosition(label);
    this.budget.spend(STEPS_PER_FRAGMENT);
    return {
      empty: 0,
      surelyEmpty: false,
      first: new Map([[id, 1]]),
      last: new Map([[id, 1]]),
      surelyLast: new Set([id]),
    };
  }

  /** A run of plain characters (`gpt-4`), one position each, each followed by the next in one way. */
  private characterRun(characters: readonly AST.Character[]): Fragment {
    const first = this.newPosition(characters[0]?.value as number);
    let last = first;
    for (const character of characters.slice(1)) {
      const id = this.newPosition(character.value);
      (this.next[last] as Ways).set(id, 1);
      last = id;
    }
    return {
      empty: 0,
      surelyEmpty: false,
      first: new Map([[first, 1]]),
      last: new Map([[last, 1]]),
      surelyLast: new Set([last]),
    };
  }

  /** Every position of `last` can be followed by every position of `first`, in as many ways as both have. */
  private link(last: Ways, first: Ways): void {
    this.budget.spend(1 + STEPS_PER_LINK * last.size * first.size);
    for (const [from, fromWays] of last) {
      const next = this.next[from] as Ways;
      for (const [to, toWays] of first) addWays(next, to, fromWays * toWays);
    }
  }

  /** Adds `part` after `sofar`, which it changes and returns. */
  private append(sofar: Fragment, part: Fragment): Fragment {
    this.link(sofar.last, part.first);
    this.budget.spend(STEPS_PER_FRAGMENT + part.first.size + part.last.size + part.surelyLast.size);
    if (sofar.empty > 0) {
      for (const [position, ways] of part.first) addWays(sofar.first, position, ways * sofar.empty);
    }
    if (part.empty === 0) {
      sofar.last = part.last;
      sofar.surelyLast = part.surelyLast;
    } else {
      if (part.empty > 1) {
        this.budget.spend(sofar.last.size);
        for (const [position, ways] of sofar.last) addWays(sofar.last, position, ways);
      }
      for (const [position, ways] of part.last) addWays(sofar.last, position, ways);
      if (!part.surelyEmpty) sofar.surelyLast = new Set();
      for (const position of part.surelyLast) sofar.surelyLast.add(position);
    }
    sofar.empty = Math.min(2, sofar.empty * part.empty);
    sofar.surelyEmpty &&= part.surelyEmpty;
    return sofar;
  }

  private sequence(elements: readonly AST.Element[], flags: Flags): Fragment {
    let sofar = emptyFragment(true);
    for (let at = 0; at < elements.length; ) {
      let end = at;
      while (elements[end]?.type === 'Character' && !flags.ignoreCase) end++;
      if (end - at > 1) {
        sofar = this.append(sofar, this.characterRun(elements.slice(at, end) as AST.Character[]));
        at = end;
      } else sofar = this.append(sofar, this.element(elements[at++] as AST.Element, flags));
    }
    return sofar;
  }

  private choice(parts: readonly Fragment[]): Fragment {
    const whole: Fragment = { empty: 0, surelyEmpty: false, first: new Map(), last: new Map(), surelyLast: new Set() };
    for (const part of parts) {
      this.budget.spend(STEPS_PER_FRAGMENT + part.first.size + part.last.size + part.surelyLast.size);
      whole.empty = Math.min(2, whole.empty + part.empty);
      whole.surelyEmpty ||= part.surelyEmpty;
      for (const [position, ways] of part.first) addWays(whole.first, position, ways);
      for (const [position, ways] of part.last) addWays(whole.last, position, ways);
      for (const position of part.surelyLast) whole.surelyLast.add(position);
    }
    return whole;
  }

  alternatives(alternatives: readonly AST.Alternative[], flags: Flags): Fragment {
    return this.choice(alternatives.map((alternative) => this.sequence(alternative.elements, flags)));
  }

  /**
   * Counted repetitions are written out, each copy with positions of its own: `x{2,4}` is
   * `x x (x (x)?)?`, so that each count has one way. An iteration that matches nothing ends a
   * repetition (ECMAScript's rule), so skipping is the one way for an optional copy to match nothing.
   */
  private quantifier(node: AST.Quantifier, flags: Flags): Fragment {
    let result = emptyFragment(true);
    for (let copy = 0; copy < node.min; copy++) result = this.append(result, this.element(node.element, flags));
    if (node.max === Number.POSITIVE_INFINITY) {
      const loop = this.element(node.element, flags);
      if (loop.empty > 1) this.repeatsEmptyTwice = true;
      this.loops = true;
      this.link(loop.last, loop.first);
      return this.append(result, { ...loop, empty: 1, surelyEmpty: true });
    }
    if (node.max > node.min) result = this.append(result, this.optionalCopies(node, flags, node.max - node.min));
    return result;
  }

  /** `(x (x (x)?)?)?` for `count` copies, built from the outside in, so in time linear in its size. */
  private optionalCopies(node: AST.Quantifier, flags: Flags, count: number): Fragment {
    const whole = emptyFragment(true);
    let previous: Fragment | undefined;
    for (let copy = 0; copy < count; copy++) {
      const part = this.element(node.element, flags);
      this.budget.spend(STEPS_PER_FRAGMENT + part.first.size + part.last.size + part.surelyLast.size);
      if (part.empty > 1) this.repeatsEmptyTwice = true;
      if (previous) this.link(previous.last, part.first);
      else for (const [position, ways] of part.first) addWays(whole.first, position, ways);
      for (const [position, ways] of part.last) addWays(whole.last, position, ways);
      for (const position of part.surelyLast) whole.surelyLast.add(position);
      previous = part;
    }
    return whole;
  }

  private lookaround(node: AST.LookaroundAssertion, flags: Flags): Fragment {
    if (hasUnboundedRepetition(node)) throw new UncheckablePattern({ kind: 'unbounded lookaround', raw: node.raw });
    this.budget.spend(STEPS_PER_LOOKAROUND);
    const body = new Builder(this.budget, this.maxPositions - this.labels.length, this.classes);
    this.lookarounds.push({ raw: node.raw, automaton: body.build(node.alternatives, flags) });
    return emptyFragment(false);
  }

  private characters(node: AST.Character | AST.CharacterClass | AST.CharacterSet, flags: Flags): Fragment {
    if (node.type === 'Character' && !flags.ignoreCase) return this.position(node.value);
    // The same class in every copy of a counted repetition, or written again, is read once.
    const key = `${flags.ignoreCase}${flags.dotAll}${node.raw}`;
    let label = this.classes.get(key);
    if (label === undefined) {
      label = classLabel(node, flags);
      this.budget.spend(typeof label === 'number' ? 1 : label.ranges.length);
      this.classes.set(key, label);
    }
    return this.position(label);
  }

  element(node: AST.Element, flags: Flags): Fragment {
    switch (node.type) {
      case 'Character':
      case 'CharacterClass':
      case 'CharacterSet':
        return this.characters(node, flags);
      case 'Group':
        return this.alternatives(node.alternatives, node.modifiers ? withModifiers(flags, node.modifiers) : flags);
      case 'CapturingGroup':
        return this.alternatives(node.alternatives, flags);
      case 'Quantifier':
        return this.quantifier(node, flags);
      case 'Backreference':
        throw new UncheckablePattern({ kind: 'backreference', raw: node.raw });
      case 'Assertion':
        if (node.kind === 'lookahead' || node.kind === 'lookbehind') return this.lookaround(node, flags);
        if (node.kind === 'word' || flags.multiline) return emptyFragment(false);
        return this.position(node.kind === 'start' ? TEXT_START : TEXT_END);
      default:
        // Only the v flag's class expressions are left, which a pattern in Unicode mode cannot hold.
        throw new Error(`unexpected ${node.type} in a pattern in Unicode mode`);
    }
  }

  build(alternatives: readonly AST.Alternative[], flags: Flags): PositionAutomaton {
    const whole = this.alternatives(alternatives, flags);
    this.next[0] = whole.first;
    return {
      labels: this.labels,
      next: this.next,
      final: this.labels.map((_, position) => whole.surelyLast.has(position)),
      matchesEmpty: whole.surelyEmpty,
      repeatsEmptyTwice: this.repeatsEmptyTwice,
      loops: this.loops,
      lookarounds: this.lookarounds,
    };
  }
}

/**
 * The automaton of `source`, an ECMAScript pattern read in Unicode mode (the u flag alone). Throws
 * SyntaxError when it is not one, UncheckablePattern when it uses a backreference or a lookaround
 * that repeats without bound, or has more than `maxPositions` positions written out.
 */
export function positionAutomaton(source: string, budget: WorkBudget, maxPositions: number): PositionAutomaton {
  const flags: Flags = { ignoreCase: false, multiline: false, dotAll: false };
  return new Builder(budget, maxPositions).build(parsePattern(source).alternatives, flags);
}
