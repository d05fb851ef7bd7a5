// The bounds of the analysis of a pattern: the work it may do, in steps, and what it does not take.

export type Unsupported =
  | { kind: 'backreference'; raw: string }
  | { kind: 'unbounded lookaround'; raw: string }
  | { kind: 'too many positions'; limit: number };

/** The pattern uses what the analysis does not bound, or is too large for it. */
export class UncheckablePattern extends Error {
  constructor(readonly reason: Unsupported) {
    super(reason.kind);
  }
}

export class OutOfBudget extends Error {}

/** Work done, in elementary steps, against a limit. */
export class WorkBudget {
  constructor(public remaining: number) {}
  /** Spends `steps`; throws OutOfBudget when they are not left. */
  spend(steps: number): void {
    this.remaining -= steps;
    if (this.remaining < 0) throw new OutOfBudget();
  }
}
