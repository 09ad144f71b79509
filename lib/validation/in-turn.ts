/**
 * Runs tasks of one key one after another, in the order they were handed in; tasks of other
 * keys are not held up. What a call decided again after its history changed under it goes
 * through: calls that conflicted are decided and committed one at a time, each from the counts
 * the one before committed, instead of racing again (where only one of them could win a round).
 */
const turns = new Map<string, Promise<void>>();

export function inTurn<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = turns.get(key) ?? Promise.resolve();
  const run = previous.then(task);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  turns.set(key, settled);
  void settled.then(() => {
    if (turns.get(key) === settled) turns.delete(key);
  });
  return run;
}
