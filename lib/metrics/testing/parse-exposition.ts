/** One sample line of the Prometheus text format. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/y;

/**
 * Reads an exposition the way Prometheus would, strictly: a line that is neither a comment nor
 * a well-formed sample fails the test that parses it.
 */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const [, name, labelText = '', value] = match as unknown as [string, string, string | undefined, string];
    const labels: Record<string, string> = {};
    LABEL.lastIndex = 0;
    while (LABEL.lastIndex < labelText.length) {
      const label = LABEL.exec(labelText);
      if (!label) throw new Error(`bad labels: ${line}`);
      labels[label[1] as string] = (label[2] as string).replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    samples.push({ name, labels, value: value === '+Inf' ? Infinity : value === '-Inf' ? -Infinity : Number(value) });
  }
  return samples;
}

/** The value of the one sample of `name` whose labels include `labels`; undefined when there is none. */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}
