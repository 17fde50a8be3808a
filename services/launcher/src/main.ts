import { endRuntimeNotice } from './runtime-notice.js';
import { ConfigError, createContext, createLogger, loadConfig, migrate, startTracing, unlockAccount, type Config, type Logger, type Tracing } from '@gatehouse/core';
import { BootstrapError } from '@gatehouse/core/bootstrap';
import { KEY_RETIREMENT_SECONDS, rotateSigningKeys } from '@gatehouse/idp';
import { exportConfigurationCommand } from './export-config.js';
import { startServer, type RunningServer, type ServiceName } from './server.js';

// The provider is loaded: its runtime warning (dropped on Node.js 20, see runtime-notice.ts) is behind us.
endRuntimeNotice();

/**
 * `npm run keys:rotate`: new signing keys take over; the previous ones stay published until the
 * tokens they signed have expired. Running nodes pick the change up within a minute (at once
 * through Redis when it is configured).
 */
async function rotateKeys(config: Config, logger: Logger) {
  const context = await createContext(config, { logger });
  try {
    await migrate(context.dataSource);
    const { added, retired } = await rotateSigningKeys(context, KEY_RETIREMENT_SECONDS);
    context.broadcast.publish('keys.changed', {});
    process.stdout.write(
      `New signing keys: ${added.join(', ')}
Previous keys stay published for ${KEY_RETIREMENT_SECONDS} s${retired.length ? `; retired now: ${retired.join(', ')}` : ''}
`,
    );
  } finally {
    await context.close();
  }
}

/**
 * `npm run unlock -- <userName>`: the way back in when every administrator is locked out. Lifts the
 * account's permanent and temporary locks and its failure counts (in Redis too, when configured),
 * and logs it. Works beside a running server, on PostgreSQL or on its embedded database.
 */
async function unlock(config: Config, logger: Logger, userName: string | undefined) {
  if (!userName) {
    console.error('Usage: npm run unlock -- <userName>');
    process.exit(2);
  }
  const context = await createContext({ ...config, database: { ...config.database, poolSize: 1 } }, { logger });
  try {
    const user = await unlockAccount(context, userName, 'Unlocked from the command line');
    if (!user) {
      console.error(`No account has the user name ${userName}`);
      process.exitCode = 1;
      return;
    }
    process.stdout.write(`${user.userName} is unlocked: it can sign in again.\n`);
  } finally {
    await context.close();
  }
}

/** The service `--only=idp|admin-api` names, if any; an unknown one stops the process. */
function onlyService(args: string[]): ServiceName | undefined {
  const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length) as ServiceName | undefined;
  if (only && only !== 'idp' && only !== 'admin-api') {
    console.error(`Unknown service "${only}": use --only=idp or --only=admin-api`);
    process.exit(2);
  }
  return only;
}

/** The configuration, or the process stops with the message naming what is wrong in it. */
function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** Printed to the terminal rather than the JSON log, so the generated password never lands in log storage. */
function printWelcome(server: RunningServer, config: Config, only: ServiceName | undefined): void {
  const lines = [
    '',
    `  Gatehouse is running at ${server.url}${only ? ` (${only} only)` : ''}`,
    `  Database: ${server.context.embeddedDatabase ? `embedded (${config.database.dataDir})` : 'PostgreSQL (DATABASE_URL)'}`,
    `  Administrator: ${config.bootstrap.adminUserName}`,
  ];
  if (server.generatedAdminPassword) {
    lines.push(
      `  Generated administrator password (shown once, only its hash is stored): ${server.generatedAdminPassword}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

/** `service.name` of the traces, unless OTEL_SERVICE_NAME says otherwise: by the services this process runs. */
const TRACE_SERVICE_NAMES = { idp: 'gatehouse-idp', 'admin-api': 'gatehouse-admin-api', both: 'gatehouse' } as const;

/**
 * SIGTERM and SIGINT drain the server, then end the process. The spans still buffered are sent in
 * what is left of the shutdown budget: the server's own stop keeps within it, so the whole stop does.
 */
function stopOnSignals(server: RunningServer, logger: Logger, tracing: Tracing | undefined): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const deadline = Date.now() + server.context.config.server.shutdownTimeoutMs;
    server.close().then(
      async () => {
        await tracing?.shutdown(deadline - Date.now());
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/**
 * Entry point of `npm start`: `--only=idp|admin-api` runs one service, `--migrate-only` stops after
 * migrating, `--rotate-keys` rotates the signing keys, `--unlock <userName>` unlocks an account,
 * `--export-config [file]` writes the configuration as a bootstrap file (to the standard output
 * without a file).
 */
async function main() {
  const args = process.argv.slice(2);
  const only = onlyService(args);
  const config = configOrExit();
  if (args.includes('--export-config')) {
    // The file may go to the standard output: the log goes to the standard error.
    await exportConfigurationCommand(config, { file: args.find((a) => !a.startsWith('--')), logger: createLogger(config.log.level, process.stderr, config.log.format) });
    return;
  }
  const logger = createLogger(config.log.level, undefined, config.log.format);
  if (args.includes('--rotate-keys')) {
    await rotateKeys(config, logger);
    return;
  }
  if (args.includes('--unlock')) {
    await unlock(config, logger, args.find((a) => !a.startsWith('--')));
    return;
  }
  if (args.includes('--migrate-only')) config.server.port = 0;
  // Before the apps: their middleware and database pool are made traced or not once, at creation.
  const tracing = await startTracing({ serviceName: TRACE_SERVICE_NAMES[only ?? 'both'], endpoint: config.tracing.otlpEndpoint, tracesEndpoint: config.tracing.otlpTracesEndpoint, disabled: config.tracing.disabled, logger });
  const server = await startServer({ config, services: only ? [only] : undefined, logger }).catch((error: unknown) => {
    if (error instanceof BootstrapError) {
      console.error(error.message);
      process.exit(1);
    }
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      // Another program (often a Gatehouse started earlier) holds the port: say so, without a stack.
      console.error(`Port ${config.server.port} on ${config.server.host} is already in use: stop what holds it, or start on another port (PORT=3001 npm start).`);
      process.exit(1);
    }
    throw error;
  });
  if (args.includes('--migrate-only')) {
    await server.close();
    await tracing?.shutdown(config.server.shutdownTimeoutMs);
    return;
  }
  printWelcome(server, config, only);
  stopOnSignals(server, logger, tracing);
}

await main();
