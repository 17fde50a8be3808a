import { vi } from 'vitest';

type Listener = (...args: unknown[]) => void;

/** A socket.io-client socket that connects nowhere: tests play the hub's part with `receive`. */
export class FakeSocket {
  connected = false;
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(readonly options: Record<string, unknown>) {}

  on(event: string, listener: Listener): this {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)!.add(listener);
    return this;
  }

  off(event?: string, listener?: Listener): this {
    if (event === undefined) this.listeners.clear();
    else if (listener) this.listeners.get(event)?.delete(listener);
    else this.listeners.delete(event);
    return this;
  }

  connect = vi.fn(() => {
    this.connected = true;
    return this;
  });

  disconnect = vi.fn(() => {
    this.connected = false;
    return this;
  });

  /** The handshake's `auth`, as the console would send it. */
  async handshakeAuth(): Promise<unknown> {
    const auth = this.options.auth as ((send: (data: unknown) => void) => void) | undefined;
    return new Promise((resolve) => auth?.(resolve));
  }

  /** What the hub would send: an event and its payload. */
  receive(event: string, ...args: unknown[]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) listener(...args);
  }
}

/** Every socket the code under test opened, oldest first. */
export const sockets: FakeSocket[] = [];

export const io = vi.fn((options: Record<string, unknown> = {}) => {
  const socket = new FakeSocket(options);
  socket.connected = true;
  sockets.push(socket);
  return socket;
});
