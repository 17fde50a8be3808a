interface Waiting<K, V> {
  key: K;
  resolve(value: V): void;
  reject(error: unknown): void;
}

/**
 * Group commit for one kind of request: the keys added in the same turn of the event loop are
 * handed to `run` together, once, on the next turn. `run` answers one value per key, in the order
 * of the keys; when it fails, every caller of the batch gets its error. A key added while a batch
 * is running waits for the next one.
 */
export class MicroBatch<K, V> {
  private waiting: Array<Waiting<K, V>> = [];
  private scheduled = false;

  constructor(private readonly run: (keys: K[]) => Promise<readonly V[]>) {}

  add(key: K): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      this.waiting.push({ key, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.waiting;
    this.waiting = [];
    this.scheduled = false;
    try {
      const values = await this.run(batch.map((item) => item.key));
      batch.forEach((item, index) => item.resolve(values[index] as V));
    } catch (error) {
      for (const item of batch) item.reject(error);
    }
  }
}
