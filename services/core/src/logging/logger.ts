import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger };

/** Paths whose values never reach a log line. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.dpop',
  'req.headers.cookie',
  'req.headers["x-xsrf-token"]',
  'res.headers["set-cookie"]',
  'password',
  'newPassword',
  'token',
  'secret',
  'clientSecret',
  '*.password',
  '*.newPassword',
  '*.confirmPassword',
  '*.token',
  '*.code',
  '*.client_secret',
  '*.clientSecret',
  '*.secret',
];

/** `json` for a log collector, `pretty` for a person at a terminal, `auto` picks by the output. */
export type LogFormat = 'auto' | 'json' | 'pretty';

/** An access-log entry as one readable phrase: `GET /api/v1/users 200 12 ms`. */
function prettyMessage(entry: Record<string, unknown>, messageKey: string): string {
  if (entry[messageKey] !== 'request') return String(entry[messageKey] ?? '');
  return `${String(entry.method)} ${String(entry.url)} ${String(entry.status)} ${String(entry.durationMs)} ms`;
}

/**
 * The readable form: time, level and message on one line, the other fields after it. The fields of
 * an access-log line are in its message already. Written synchronously, as the JSON lines are, so
 * that a line logged just before the process stops is not lost.
 */
function prettyStream(destination: NodeJS.WritableStream | undefined, colorize: boolean): pino.DestinationStream {
  return pretty({
    destination: destination ?? 1,
    sync: true,
    colorize,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service,method,url,status,durationMs',
    messageFormat: prettyMessage,
  });
}

export function createLogger(level: string, destination?: NodeJS.WritableStream, format: LogFormat = 'json'): Logger {
  const output = destination ?? process.stdout;
  const readable = format === 'pretty' || (format === 'auto' && (output as { isTTY?: boolean }).isTTY === true);
  return pino(
    {
      level,
      base: { service: 'gatehouse' },
      redact: { paths: REDACT, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    readable ? prettyStream(destination, (output as { isTTY?: boolean }).isTTY === true) : (destination as pino.DestinationStream | undefined),
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
