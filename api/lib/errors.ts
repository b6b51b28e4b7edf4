/**
 * A request that breaks one of the product's rules, found where the rule is checked (often inside a
 * transaction): 400 (a malformed request the schema cannot see), 403 (not yours, too late), 404 (no
 * such thing) or 409 (not in a state that allows it). app.onError answers `{ error }` with its status.
 */
export class RuleError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 403 | 404 | 409 = 400,
  ) {
    super(message);
    this.name = 'RuleError';
  }
}
