/**
 * The path to come back to after signing in, kept only if it stays in the portal: an absolute
 * URL or a protocol-relative '//host' from a tampered state would send the user elsewhere.
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return '/';
  }
  // Coming back to the callback itself would try to redeem a used code.
  return value.startsWith('/auth/callback') ? '/' : value;
}
