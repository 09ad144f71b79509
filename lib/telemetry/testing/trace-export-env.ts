import { resetEnvForTests } from '../../env';
import { startTraceExport, stopTraceExport } from '../trace-export';

const saved = new Map<string, string | undefined>();

/**
 * Restarts trace export with these variables set (undefined unsets one), as a process started
 * with them would: the pipeline reads its settings when it is created.
 */
export async function restartTraceExport(vars: Record<string, string | undefined>): Promise<boolean> {
  await stopTraceExport();
  for (const [name, value] of Object.entries(vars)) {
    if (!saved.has(name)) saved.set(name, process.env[name]);
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvForTests();
  return startTraceExport();
}

/** Stops export and puts back every variable restartTraceExport changed. */
export async function endTraceExport(): Promise<void> {
  await stopTraceExport();
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  saved.clear();
  resetEnvForTests();
}
