/** The spec's limit of silent renewals after 401 answers in a row. */
export const UNAUTHORIZED_RENEWAL_LIMIT = 3;

/**
 * Decides whether a request the API answered 401 is worth repeating after a silent renewal: at
 * most {@link UNAUTHORIZED_RENEWAL_LIMIT} renewals in a row, counted across requests, so an API
 * that refuses every token cannot make the portal renew forever. A successful answer starts the
 * count again.
 */
export class UnauthorizedRetry {
  private consecutive = 0;

  constructor(
    private readonly renew: (rejectedToken: string | undefined) => Promise<unknown>,
    readonly limit = UNAUTHORIZED_RENEWAL_LIMIT,
  ) {}

  /** After a 401: renews the tokens unless the limit is reached; true when the request may be sent again. */
  async renewAfterUnauthorized(rejectedToken: string | undefined): Promise<boolean> {
    if (this.consecutive >= this.limit) return false;
    this.consecutive += 1;
    try {
      return Boolean(await this.renew(rejectedToken));
    } catch {
      return false;
    }
  }

  /** An answer other than 401 arrived. */
  succeeded(): void {
    this.consecutive = 0;
  }

  get renewalsInARow(): number {
    return this.consecutive;
  }
}
