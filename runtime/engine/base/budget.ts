/**
 * Budgets per named caller: requests and tokens. A call reserves before it is sent (one
 * request and an upper bound of its tokens); a call that would pass either limit is refused
 * and never sent. After the reply, the reservation is settled to the tokens the server
 * reported (the unused part returns to the caller). Each caller draws only on its own budget,
 * so one caller running dry never stops another. A lane-wide budget, when set, caps the sum.
 *
 * Example: `const book = new BudgetBook({"errata-triage": {requests: 2}});
 * book.reserve("errata-triage", 100)` -> `{ok: true, …}` twice, then
 * `{ok: false, reason: "budget of caller errata-triage exhausted: requests 2 of 2 used"}`.
 */
export interface Budget {
  /** Most requests (HTTP attempts, retries included); undefined = no limit. */
  requests?: number | undefined;
  /** Most tokens (prompt + completion); undefined = no limit. */
  tokens?: number | undefined;
}

export interface Usage {
  requests: number;
  tokens: number;
}

export type Reservation = { ok: true; caller: string; tokens: number; settled: boolean } | { ok: false; reason: string };

function fits(limit: Budget, used: Usage, tokens: number): string | null {
  if (limit.requests !== undefined && used.requests + 1 > limit.requests) return `requests ${used.requests} of ${limit.requests} used`;
  if (limit.tokens !== undefined && used.tokens + tokens > limit.tokens) return `tokens ${used.tokens} of ${limit.tokens} used, this call may need ${tokens}`;
  return null;
}

export class BudgetBook {
  private readonly used = new Map<string, Usage>();
  private readonly laneUsed: Usage = { requests: 0, tokens: 0 };
  /** Tokens the server reported above what was reserved (a server under-counting our bound). */
  overrunTokens = 0;

  constructor(
    private readonly budgets: Readonly<Record<string, Budget>>,
    private readonly defaultBudget: Budget = {},
    private readonly laneBudget: Budget = {},
  ) {}

  limitOf(caller: string): Budget {
    return this.budgets[caller] ?? this.defaultBudget;
  }

  usage(caller: string): Usage {
    const u = this.used.get(caller);
    return u ? { ...u } : { requests: 0, tokens: 0 };
  }

  laneUsage(): Usage {
    return { ...this.laneUsed };
  }

  /** Reserves one request and `tokens` for `caller`, or refuses without sending. */
  reserve(caller: string, tokens: number): Reservation {
    const u = this.used.get(caller) ?? { requests: 0, tokens: 0 };
    const mine = fits(this.limitOf(caller), u, tokens);
    if (mine !== null) return { ok: false, reason: `budget of caller ${caller} exhausted: ${mine}` };
    const lane = fits(this.laneBudget, this.laneUsed, tokens);
    if (lane !== null) return { ok: false, reason: `lane budget exhausted: ${lane}` };
    u.requests++;
    u.tokens += tokens;
    this.used.set(caller, u);
    this.laneUsed.requests++;
    this.laneUsed.tokens += tokens;
    return { ok: true, caller, tokens, settled: false };
  }

  /**
   * Settles a reservation to the tokens actually used (null = unknown, e.g. a time-out: the
   * reservation stands). The request itself stays counted: it was sent.
   */
  settle(r: Reservation, actualTokens: number | null): void {
    if (!r.ok || r.settled) return;
    r.settled = true;
    if (actualTokens === null) return;
    const u = this.used.get(r.caller) as Usage;
    const refund = r.tokens - actualTokens;
    if (refund < 0) this.overrunTokens -= refund;
    const delta = Math.min(r.tokens, Math.max(0, actualTokens)) - r.tokens;
    u.tokens += delta;
    this.laneUsed.tokens += delta;
  }
}
