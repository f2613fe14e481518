import { describe, expect, it } from 'vitest';
import { createGroupCommit } from '../src/db/groupCommit.js';

// How a group commit forms its batches (src/db/groupCommit.ts), over a write that takes three turns
// of the event loop: no database, no clock, so the batches are the same on any machine.
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `callers` each submit `rounds` times, again one turn after each answer (a closed loop, as under load). */
async function batchesOf(options: { spread?: boolean }, callers: number, rounds: number) {
  const sizes: number[] = [];
  const group = createGroupCommit<number, number>({
    closedMessage: 'closed',
    maxInFlight: 2,
    ...options,
    async writeMany(items) {
      sizes.push(items.length);
      for (let i = 0; i < 3; i++) await turn();
      return items;
    },
  });
  const answers = await Promise.all(
    Array.from({ length: callers }, async (_, caller) => {
      let answered = 0;
      for (let round = 0; round < rounds; round++) {
        answered += (await group.submit(caller)) === caller ? 1 : 0;
        await turn();
      }
      return answered;
    }),
  );
  await group.close();
  return { sizes, answered: answers.reduce((sum, count) => sum + count, 0) };
}

describe('group commit', () => {
  it('without spread, callers answered together go together: one batch of all of them at a time', async () => {
    const { sizes, answered } = await batchesOf({}, 10, 20);
    expect(answered).toBe(200);
    expect(sizes.slice(-10)).toEqual(Array(10).fill(10));
  });

  it('spread: the same callers settle into one batch per slot, half of them each', async () => {
    const { sizes, answered } = await batchesOf({ spread: true }, 10, 20);
    expect(answered).toBe(200);
    expect(sizes.slice(-10)).toEqual(Array(10).fill(5));
  });

  it('spread: after a burst, lone items halve the peak until one leaves once its microtasks have run', async () => {
    const sizes: number[] = [];
    const group = createGroupCommit<number, number>({
      closedMessage: 'closed',
      spread: true,
      async writeMany(items) {
        sizes.push(items.length);
        await turn();
        return items;
      },
    });
    // A burst of 40 in one go: one batch, and a peak of 40 that now asks for 20 a batch.
    await Promise.all(Array.from({ length: 40 }, (_, index) => group.submit(index)));
    expect(sizes).toEqual([40]);
    // One caller alone: each of its items waits for the end of the turn and halves the peak, until
    // an item's share is itself (40 -> 20 -> 10 -> 5 -> 2.5 -> 1.25: five such items), then leaves at once.
    for (let index = 0; index < 5; index++) await group.submit(index);
    expect(sizes).toEqual([40, 1, 1, 1, 1, 1]);
    const lone = group.submit(-1);
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    expect(sizes).toEqual([40, 1, 1, 1, 1, 1, 1]);
    await lone;
    await group.close();
  });
});
