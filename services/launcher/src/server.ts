import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  applyBootstrap,
  createContext,
  migrate,
  readBootstrapFile,
  resolveConfigPath,
  type AppContext,
  type Config,
  type Logger,
} from '@gatehouse/core';
import * as adminApi from '@gatehouse/admin-api';
import * as idp from '@gatehouse/idp';

export type ServiceName = 'idp' | 'admin-api';

export interface StartOptions {
  config: Config;
  /** Services to run; both by default (one process, one port). */
  services?: ServiceName[];
  logger?: Logger;
}

export interface RunningServer {
  url: string;
  port: number;
  context: AppContext;
  /** The administrator's generated password, on the start that created it. */
  generatedAdminPassword?: string;
  close(): Promise<void>;
}

/**
 * Opens the database, migrates, applies the bootstrap file and serves the chosen services on one
 * port, routing by path prefix so every browser request stays same-origin.
 */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const { config } = options;
  const services = options.services ?? ['idp', 'admin-api'];
  const context = await createContext(config, { logger: options.logger });
  const { logger } = context;
  let generatedAdminPassword: string | undefined;
  try {
    const applied = await migrate(context.dataSource);
    if (applied.length) logger.info({ migrations: applied }, 'migrations applied');
    const file = resolveConfigPath(config, config.bootstrap.file);
    const doc = await readBootstrapFile(file, { publicUrl: config.server.publicUrl });
    const result = await applyBootstrap(context.dataSource, doc, {
      secrets: context.secrets,
      file,
      admin: { userName: config.bootstrap.adminUserName, password: config.bootstrap.adminPassword },
    });
    generatedAdminPassword = result.generatedAdminPassword;
    logger.info({ file, created: result.created, updated: result.updated }, 'bootstrap applied');
  } catch (error) {
    await context.close();
    throw error;
  }

  const idpInstance = services.includes('idp') ? await idp.createApp(context).catch(async (error: unknown) => {
    await context.close();
    throw error;
  }) : undefined;
  const idpApp = idpInstance?.callback();
  const adminApp = services.includes('admin-api') ? adminApi.createApp(context).callback() : undefined;
  const isAdminPath = (url: string) => adminApi.ROUTE_PREFIXES.some((p) => url === p || url.startsWith(`${p}/`) || url.startsWith(`${p}?`));
  let shuttingDown = false;
  const handler: http.RequestListener = (req, res) => {
    const target = adminApp && (isAdminPath(req.url ?? '/') || !idpApp) ? adminApp : idpApp!;
    // During shutdown a keep-alive connection is closed as soon as its last answer is sent.
    res.once('finish', () => shuttingDown && setImmediate(() => server.closeIdleConnections()));
    void target(req, res);
  };

  const server = http.createServer(handler);
  // Keep-alive sockets, so shutdown can close the idle ones and wait for the busy ones.
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.server.port, config.server.host, () => resolve());
  }).catch(async (error) => {
    await context.close();
    throw error;
  });
  const port = (server.address() as AddressInfo).port;
  const url = config.server.port === 0 ? `http://${config.server.host}:${port}` : config.server.publicUrl;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      shuttingDown = true;
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => {
        logger.warn({ open: sockets.size }, 'shutdown timeout: closing remaining connections');
        for (const socket of sockets) socket.destroy();
      }, config.server.shutdownTimeoutMs);
      await drained;
      clearTimeout(timer);
      await idpInstance?.close();
      await context.close();
    })());

  return { url, port, context, generatedAdminPassword, close };
}
