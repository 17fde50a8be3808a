import { BootstrapError, ConfigError, createLogger, loadConfig } from '@gatehouse/core';
import { startServer, type ServiceName } from './server.js';

/** Entry point of `npm start`: `--only=idp|admin-api` runs one service, `--migrate-only` stops after migrating. */
async function main() {
  const args = process.argv.slice(2);
  const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length) as ServiceName | undefined;
  if (only && only !== 'idp' && only !== 'admin-api') {
    console.error(`Unknown service "${only}": use --only=idp or --only=admin-api`);
    process.exit(2);
  }
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.log.level);
  if (args.includes('--migrate-only')) config.server.port = 0;
  const server = await startServer({ config, services: only ? [only] : undefined, logger }).catch((error: unknown) => {
    if (error instanceof BootstrapError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  });
  if (args.includes('--migrate-only')) {
    await server.close();
    return;
  }

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
  // Printed to the terminal rather than the JSON log, so the generated password never lands in log storage.
  process.stdout.write(`${lines.join('\n')}\n\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

await main();
