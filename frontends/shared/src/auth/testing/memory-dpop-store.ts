import { DPoPState } from 'oidc-client-ts';
import type { DPoPKeyStore } from '../user-manager';

/** The DPoP key store of a test: IndexedDB's part, in memory (jsdom has no IndexedDB). */
export class MemoryDPoPStore implements DPoPKeyStore {
  readonly entries = new Map<string, DPoPState>();

  async set(key: string, value: DPoPState): Promise<void> {
    this.entries.set(key, value);
  }

  async get(key: string): Promise<DPoPState> {
    return this.entries.get(key)!;
  }

  async remove(key: string): Promise<DPoPState> {
    const value = this.entries.get(key)!;
    this.entries.delete(key);
    return value;
  }

  async getAllKeys(): Promise<string[]> {
    return [...this.entries.keys()];
  }
}
