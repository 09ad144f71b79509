import { describe, expect, it } from 'vitest';
import { inTurn } from './in-turn';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('inTurn', () => {
  it('runs the tasks of one key one after another in order, past a failing one; other keys run meanwhile', async () => {
    const log: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        log.push(`start ${name}`);
        await tick();
        log.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([inTurn('a', task('a1', true)), inTurn('a', task('a2')), inTurn('b', task('b1'))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(log.filter((l) => l.endsWith('a1') || l.endsWith('a2'))).toEqual(['start a1', 'end a1', 'start a2', 'end a2']);
    // b did not wait for a's tasks.
    expect(log.indexOf('start b1')).toBeLessThan(log.indexOf('end a1'));
    expect(await inTurn('a', async () => 'again')).toBe('again');
  });
});
