import { errors } from 'oidc-provider';
import type { Adapter, AdapterPayload } from 'oidc-provider';

interface Entry {
  payload: AdapterPayload;
  /** Epoch milliseconds; undefined never expires. */
  expiresAt: number | undefined;
  /** Epoch seconds, as oidc-provider reports `consumed`. */
  consumedAt: number | undefined;
}

/** Artefacts by model name, then by id. */
export type MemoryStore = Map<string, Map<string, Entry>>;

const defaultStore: MemoryStore = new Map();

// Payloads go through JSON, as they do through jsonb, so both adapters hand back the same shapes
// and callers can never mutate what is stored.
const copy = (payload: AdapterPayload): AdapterPayload => JSON.parse(JSON.stringify(payload)) as AdapterPayload;
const isLive = (entry: Entry, now = Date.now()) => entry.expiresAt === undefined || entry.expiresAt > now;

/**
 * In-process oidc-provider storage with the semantics of {@link PostgresAdapter}: expired entries
 * are never returned, and `consume` is a compare-and-set whose loser gets `InvalidGrant`. For tests
 * and benchmarks; lookups by uid, user code and grant scan the model's entries.
 */
export class MemoryAdapter implements Adapter {
  private readonly entries: Map<string, Entry>;

  constructor(
    private readonly model: string,
    store: MemoryStore = defaultStore,
  ) {
    let entries = store.get(model);
    if (!entries) store.set(model, (entries = new Map()));
    this.entries = entries;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const previous = this.live(id);
    const { consumed, ...stored } = payload;
    this.entries.set(id, {
      payload: copy(stored),
      expiresAt: typeof expiresIn === 'number' && Number.isFinite(expiresIn) ? Date.now() + expiresIn * 1000 : undefined,
      // Consumption is one-way, as in the Postgres adapter.
      consumedAt: previous?.consumedAt ?? (typeof consumed === 'number' ? consumed : consumed ? epochSeconds() : undefined),
    });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.read(this.live(id));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.read(this.scan((entry) => entry.payload.uid === uid)[0]?.[1]);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.read(this.scan((entry) => entry.payload.userCode === userCode)[0]?.[1]);
  }

  /** Marks the entry consumed; throws `InvalidGrant` when it already was (or is gone or expired). */
  async consume(id: string): Promise<void> {
    // No await between the check and the set: that is what makes it atomic.
    const entry = this.live(id);
    if (!entry || entry.consumedAt !== undefined) throw new errors.InvalidGrant(`${this.model} already consumed`);
    entry.consumedAt = epochSeconds();
  }

  async destroy(id: string): Promise<void> {
    this.entries.delete(id);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    for (const [id] of this.scan((entry) => entry.payload.grantId === grantId)) this.entries.delete(id);
  }

  private live(id: string): Entry | undefined {
    const entry = this.entries.get(id);
    if (entry && !isLive(entry)) {
      this.entries.delete(id);
      return undefined;
    }
    return entry;
  }

  /** Live entries matching `test`; expired ones met on the way are dropped, which bounds growth. */
  private scan(test: (entry: Entry) => boolean): Array<[string, Entry]> {
    const now = Date.now();
    const found: Array<[string, Entry]> = [];
    for (const [id, entry] of this.entries) {
      if (!isLive(entry, now)) this.entries.delete(id);
      else if (test(entry)) found.push([id, entry]);
    }
    return found;
  }

  private read(entry: Entry | undefined): AdapterPayload | undefined {
    if (!entry) return undefined;
    const payload = copy(entry.payload);
    if (entry.consumedAt !== undefined) payload.consumed = entry.consumedAt;
    return payload;
  }
}

function epochSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
