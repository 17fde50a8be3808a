import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createContext, migrate, resolveConfigPath, type AppContext, type Config, type Logger } from '@gatehouse/core';
import { applyBootstrap, readBootstrap } from '@gatehouse/core/bootstrap';
import { basePathOf, metricsPortListener, withinBasePath } from '@gatehouse/core/http';
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
  /** The loopback port serving `/metrics` without a token, when METRICS_PORT is set. */
  metricsPort?: number;
  /** The administrator's generated password, on the start that created it. */
  generatedAdminPassword?: string;
  close(): Promise<void>;
}

/** Migrates the database and applies the bootstrap file; answers the administrator's generated password, if any. */
async function prepareDatabase(context: AppContext): Promise<string | undefined> {
  const { config, logger } = context;
  const applied = await migrate(context.dataSource);
  if (applied.length) logger.info({ migrations: applied }, 'migrations applied');
  const file = resolveConfigPath(config, config.bootstrap.file);
  const { document, notices } = await readBootstrap(file, { publicUrl: config.server.publicUrl, env: config.bootstrap.variables });
  for (const notice of notices) logger.warn({ file }, notice);
  const result = await applyBootstrap(context.dataSource, document, {
    secrets: context.secrets,
    file,
    allowPrivateNetworkRequests: config.oidc.allowPrivateNetworkRequests,
    admin: { userName: config.bootstrap.adminUserName, password: config.bootstrap.adminPassword },
  });
  logger.info({ file, created: result.created, updated: result.updated }, 'bootstrap applied');
  return result.generatedAdminPassword;
}

type Listener = (req: http.IncomingMessage, res: http.ServerResponse) => unknown;

const isAdminPath = (url: string) => adminApi.ROUTE_PREFIXES.some((p) => url === p || url.startsWith(`${p}/`) || url.startsWith(`${p}?`));

/**
 * Sends the admin API's paths to it and every other path to the idp; with one service, everything
 * to it. Paths count from the base path of the public URL (each app refuses what is outside it).
 */
function routeByPath(idpApp: Listener | undefined, adminApp: Listener | undefined, base: string): http.RequestListener {
  return (req, res) => {
    const path = withinBasePath(req.url ?? '/', base);
    const target = adminApp && ((path !== undefined && isAdminPath(path)) || !idpApp) ? adminApp : idpApp!;
    void target(req, res);
  };
}

interface Listening {
  port: number;
  /** Stops accepting connections and waits for the open ones, destroying those left after `timeoutMs`. */
  drain(timeoutMs: number, logger: Logger): Promise<void>;
}

/**
 * Serves a handler on the configured port. Keep-alive sockets are tracked, so draining closes the
 * idle ones at once and waits for the busy ones.
 */
async function listen(config: Config, handler: http.RequestListener, prepare?: (server: http.Server) => Promise<void>): Promise<Listening> {
  let draining = false;
  const answering = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    // During shutdown every answer says `Connection: close`, so no client sends another request on
    // a connection about to close; a keep-alive connection is closed as soon as its answer is sent.
    if (draining) res.shouldKeepAlive = false;
    answering.add(res);
    res.once('close', () => answering.delete(res));
    res.once('finish', () => draining && setImmediate(() => server.closeIdleConnections()));
    handler(req, res);
  });
  // What shares the server (the notification hub's websockets) is attached before the first connection.
  await prepare?.(server);
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.server.port, config.server.host, () => resolve());
  });
  const drain = async (timeoutMs: number, logger: Logger) => {
    draining = true;
    for (const res of answering) if (!res.headersSent) res.shouldKeepAlive = false;
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const timer = setTimeout(() => {
      logger.warn({ open: sockets.size }, 'shutdown timeout: closing remaining connections');
      for (const socket of sockets) socket.destroy();
    }, timeoutMs);
    await drained;
    clearTimeout(timer);
  };
  return { port: (server.address() as AddressInfo).port, drain };
}

/**
 * `/metrics` on 127.0.0.1:METRICS_PORT, when it is set: for a scraper or agent on the same machine,
 * without a token, never on another interface.
 */
async function listenForMetrics(context: AppContext): Promise<{ port: number; close(): Promise<void> } | undefined> {
  const { port } = context.config.metrics;
  if (port === undefined) return undefined;
  const server = http.createServer(metricsPortListener(context));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { port: (server.address() as AddressInfo).port, close };
}

/**
 * Opens the database, migrates, applies the bootstrap file and serves the chosen services on one
 * port, routing by path prefix so every browser request stays same-origin.
 */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const { config } = options;
  const services = options.services ?? ['idp', 'admin-api'];
  const context = await createContext(config, { logger: options.logger });
  const closeOnFailure = async (error: unknown): Promise<never> => {
    await context.close();
    throw error;
  };
  const generatedAdminPassword = await prepareDatabase(context).catch(closeOnFailure);
  const idpInstance = services.includes('idp') ? await idp.createApp(context).catch(closeOnFailure) : undefined;
  // The admin API's routes, background jobs and notification hub share one admin context.
  const admin = services.includes('admin-api') ? adminApi.createAdminContext(context) : undefined;
  const adminApp = admin ? adminApi.createApp(admin).callback() : undefined;
  let hub: adminApi.NotificationHub | undefined;
  const attachHub = async (server: http.Server) => {
    if (admin) hub = await adminApi.attachNotificationHub(admin, server);
  };
  const metrics = await listenForMetrics(context).catch(closeOnFailure);
  const listening = await listen(config, routeByPath(idpInstance?.callback(), adminApp, basePathOf(config.server.publicUrl)), attachHub).catch(async (error: unknown) => {
    await hub?.close();
    await metrics?.close();
    return closeOnFailure(error);
  });
  const { port } = listening;
  // The admin API deletes the log rows past their retention, every node in turn.
  const logRetention = admin ? adminApi.startLogRetention(admin) : undefined;
  // Background jobs (reports, imports) run on every node of the admin API; stopped before the database closes.
  const backgroundJobs = admin ? await adminApi.startBackgroundJobs(admin).catch(closeOnFailure) : undefined;
  const url = config.server.port === 0 ? `http://${config.server.host}:${port}` : config.server.publicUrl;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // Open websockets would hold the drain until its timeout: the consoles reconnect elsewhere.
      await hub?.close();
      // The whole stop fits the budget: requests in flight get it less what closing the rest takes.
      const closingReserveMs = Math.min(2_000, Math.floor(config.server.shutdownTimeoutMs / 5));
      await listening.drain(config.server.shutdownTimeoutMs - closingReserveMs, context.logger);
      await metrics?.close();
      await idpInstance?.close();
      await logRetention?.stop();
      await backgroundJobs?.stop();
      await context.close();
    })());

  return { url, port, metricsPort: metrics?.port, context, generatedAdminPassword, close };
}
