import { pino, type Logger } from 'pino';

export type { Logger };

/** Paths whose values never reach a log line. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.dpop',
  'req.headers.cookie',
  'req.headers["x-xsrf-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.confirmPassword',
  '*.token',
  '*.code',
  '*.client_secret',
  '*.clientSecret',
  '*.secret',
];

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: { service: 'gatehouse' },
      redact: { paths: REDACT, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination as pino.DestinationStream | undefined,
  );
}

const SENSITIVE_QUERY = /^(token|code|access_token|id_token|id_token_hint|refresh_token|client_secret|password|state|nonce|code_verifier)$/i;
/** Path segments after these carry secrets (e.g. the reset token in validateToken/{name}/{token}). */
const SENSITIVE_PATHS: Array<[RegExp, string]> = [
  [/(\/api\/v1\/account\/validateToken\/[^/]+\/)[^/?]+/i, '$1[redacted]'],
];

/** The URL as it may be logged: secret-bearing query values and path segments removed. */
export function loggableUrl(url: string): string {
  let [pathname, query] = url.split('?', 2) as [string, string | undefined];
  for (const [pattern, replacement] of SENSITIVE_PATHS) pathname = pathname.replace(pattern, replacement);
  if (!query) return pathname;
  const params = new URLSearchParams(query);
  for (const key of [...params.keys()]) if (SENSITIVE_QUERY.test(key)) params.set(key, '[redacted]');
  return `${pathname}?${params.toString()}`;
}
