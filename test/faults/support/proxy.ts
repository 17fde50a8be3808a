// A loopback TCP proxy in front of a dependency (the database, Redis) that a fault scenario turns
// slow or silent: `latency(ms)` delays every chunk the dependency sends back (so each round trip
// takes that much longer), `blackhole()` keeps every connection open and accepts new ones but lets
// nothing through, as a dead network path does.
import net from 'node:net';

type Mode = { kind: 'pass' } | { kind: 'latency'; ms: number } | { kind: 'blackhole' };

export class FaultProxy {
  private server!: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private mode: Mode = { kind: 'pass' };
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** A proxy to the host and port of `url` (postgres:// or redis://). */
  static for(url: string): FaultProxy {
    const target = new URL(url);
    return new FaultProxy(target.hostname, Number(target.port));
  }

  /** `url` with its host and port replaced by the proxy's. */
  through(url: string): string {
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(this.port);
    return proxied.toString();
  }

  async start(): Promise<this> {
    this.server = net.createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  /** Every chunk from the dependency arrives `ms` later (order kept). */
  latency(ms: number): void {
    this.mode = { kind: 'latency', ms };
  }

  /** Nothing goes through any more, either way; connections stay open. */
  blackhole(): void {
    this.mode = { kind: 'blackhole' };
  }

  /** Back to a plain relay; what was swallowed meanwhile stays lost. */
  pass(): void {
    this.mode = { kind: 'pass' };
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    this.track(client);
    // A connection made while the path is dead goes nowhere: it is accepted and never answered.
    if (this.mode.kind === 'blackhole') return;
    const upstream = net.connect(this.targetPort, this.targetHost);
    this.track(upstream);
    this.relay(client, upstream, false);
    this.relay(upstream, client, true);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  private relay(from: net.Socket, to: net.Socket, answers: boolean): void {
    // Chunks leave in the order they came, each no sooner than its own delay.
    let last = 0;
    from.on('data', (chunk: Buffer) => {
      const mode = this.mode;
      if (mode.kind === 'blackhole') return;
      const delay = mode.kind === 'latency' && answers ? mode.ms : 0;
      if (delay === 0 && last <= Date.now()) {
        to.write(chunk);
        return;
      }
      const due = Math.max(last, Date.now() + delay);
      last = due;
      setTimeout(() => {
        if (this.mode.kind !== 'blackhole' && !to.destroyed) to.write(chunk);
      }, due - Date.now());
    });
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.sockets.delete(socket));
  }
}
