import { expect } from 'chai';
import { MicroBatch } from './micro-batch.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('MicroBatch', () => {
  it('runs the keys added in one turn of the event loop as one batch, answering each caller its own value', async () => {
    const runs: number[][] = [];
    const batch = new MicroBatch<number, number>(async (keys) => {
      runs.push(keys);
      return keys.map((key) => key * 10);
    });

    const values = await Promise.all([batch.add(1), batch.add(2), batch.add(3)]);

    expect(runs).to.deep.equal([[1, 2, 3]]);
    expect(values).to.deep.equal([10, 20, 30]);
  });

  it('waits for the next turn before running, so a key added later in the same turn still joins', async () => {
    const runs: string[][] = [];
    const batch = new MicroBatch<string, string>(async (keys) => {
      runs.push(keys);
      return keys;
    });

    const first = batch.add('a');
    expect(runs).to.deep.equal([]);
    await Promise.resolve();
    const second = batch.add('b');
    await Promise.all([first, second]);

    expect(runs).to.deep.equal([['a', 'b']]);
  });

  it('runs keys added in different turns as separate batches', async () => {
    const runs: number[][] = [];
    const batch = new MicroBatch<number, number>(async (keys) => {
      runs.push(keys);
      return keys;
    });

    const first = batch.add(1);
    await nextTurn();
    const second = batch.add(2);
    await Promise.all([first, second]);

    expect(runs).to.deep.equal([[1], [2]]);
  });

  it('puts a key added while a batch is running into the next batch', async () => {
    const runs: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const batch = new MicroBatch<number, number>(async (keys) => {
      runs.push(keys);
      if (runs.length === 1) await gate;
      return keys;
    });

    const first = batch.add(1);
    await nextTurn();
    expect(runs).to.deep.equal([[1]]);
    const second = batch.add(2);
    await nextTurn();
    expect(runs).to.deep.equal([[1], [2]]);
    release();

    expect(await Promise.all([first, second])).to.deep.equal([1, 2]);
  });

  it('rejects every caller of a failed batch with its error, and runs the next batch afresh', async () => {
    let fail = true;
    const batch = new MicroBatch<number, number>(async (keys) => {
      if (fail) throw new Error('database unavailable');
      return keys;
    });

    const results = await Promise.allSettled([batch.add(1), batch.add(2)]);
    expect(results.map((r) => r.status)).to.deep.equal(['rejected', 'rejected']);
    expect(results.map((r) => (r as PromiseRejectedResult).reason.message)).to.deep.equal(['database unavailable', 'database unavailable']);

    fail = false;
    expect(await batch.add(3)).to.equal(3);
  });
});
