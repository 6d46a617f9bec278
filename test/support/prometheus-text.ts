// Prometheus's text exposition format (version 0.0.4), read strictly: every line must be a HELP, a TYPE, a blank or a
// sample with valid labels and a number, and every sample must belong to a family declared by TYPE. (The npm parser
// we tried drops the labels, sum and count of histogram samples.)

export interface Sample {
  /** The sample's own name (for a histogram: <family>_bucket, _sum or _count). */
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+-?\d+)?$/;
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)/y;

function labelsOf(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const match = LABEL.exec(text);
    if (!match) throw new Error(`bad labels in: ${line}`);
    labels[match[1]!] = match[2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
  }
  return labels;
}

function numberOf(text: string, line: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  const value = Number(text);
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text) || Number.isNaN(value)) throw new Error(`bad value in: ${line}`);
  return value;
}

export function parsePrometheusText(text: string): Map<string, MetricFamily> {
  const families = new Map<string, MetricFamily>();
  const familyOf = (sampleName: string) =>
    families.get(sampleName) ??
    [...families.values()].find((f) => (f.type === 'histogram' || f.type === 'summary') && [`${f.name}_bucket`, `${f.name}_sum`, `${f.name}_count`].includes(sampleName));
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const meta = /^#\s+(HELP|TYPE)\s+(\S+)\s*(.*)$/.exec(line);
    if (meta) {
      const [, kind, name, rest] = meta;
      if (!NAME.test(name!)) throw new Error(`bad metric name in: ${line}`);
      const family = families.get(name!) ?? { name: name!, help: '', type: 'untyped' as const, samples: [] };
      families.set(name!, family);
      if (kind === 'HELP') family.help = rest!;
      else if (['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(rest!)) family.type = rest as MetricFamily['type'];
      else throw new Error(`bad type in: ${line}`);
      continue;
    }
    if (line.startsWith('#')) continue;
    const sample = SAMPLE.exec(line);
    if (!sample) throw new Error(`not a sample: ${line}`);
    const family = familyOf(sample[1]!);
    if (!family) throw new Error(`a sample of no declared family: ${line}`);
    family.samples.push({ name: sample[1]!, labels: sample[3] ? labelsOf(sample[3], line) : {}, value: numberOf(sample[4]!, line) });
  }
  return families;
}
