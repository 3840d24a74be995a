// What went wrong in a measurement window, so that a row with errors says why: the kinds of failed
// requests the load generator saw (with how often each), and the service's warnings and errors.

/** One kind of failure: an answer other than 2xx (its status, code and message) or a transport error (code and message). */
export interface FailureSample {
  status?: number;
  code?: string;
  message: string;
  count: number;
}

/** Distinct kinds kept per window; the rest are counted together, so one noisy kind cannot hide another. */
const MAX_KINDS = 8;
/** Service log lines kept per window. */
const MAX_LOG_LINES = 10;

/** Gathers failure kinds in the load generator, as the answers and errors come in. */
export class FailureSamples {
  readonly #kinds = new Map<string, FailureSample>();

  /** An answer other than 2xx; the body is the service's error shape ({ code, message }) or anything else. */
  answer(status: number, body: string): void {
    let code: string | undefined;
    let message = body.slice(0, 300);
    try {
      const parsed = JSON.parse(body) as { code?: unknown; message?: unknown };
      if (typeof parsed.code === 'string') code = parsed.code;
      if (typeof parsed.message === 'string') message = parsed.message;
    } catch {
      // Not JSON: the body's start is the message.
    }
    this.#note({ status, code, message });
  }

  /** A request that got no answer: a refused or reset connection, a timeout. */
  transport(error: Error & { code?: string }): void {
    this.#note({ code: error.code, message: error.message });
  }

  list(): FailureSample[] {
    return [...this.#kinds.values()].sort((a, b) => b.count - a.count);
  }

  #note(sample: Omit<FailureSample, 'count'>): void {
    let key = `${sample.status ?? ''}|${sample.code ?? ''}|${sample.message}`;
    if (!this.#kinds.has(key) && this.#kinds.size >= MAX_KINDS - 1) key = 'other';
    const kind = this.#kinds.get(key);
    if (kind) kind.count++;
    else this.#kinds.set(key, key === 'other' ? { message: 'other kinds of failure', count: 1 } : { ...sample, count: 1 });
  }
}

/** Adds up the samples of several windows, kind by kind. */
export function mergeSamples(windows: FailureSample[][]): FailureSample[] {
  const kinds = new Map<string, FailureSample>();
  for (const sample of windows.flat()) {
    const key = `${sample.status ?? ''}|${sample.code ?? ''}|${sample.message}`;
    const kind = kinds.get(key);
    if (kind) kind.count += sample.count;
    else kinds.set(key, { ...sample });
  }
  return [...kinds.values()].sort((a, b) => b.count - a.count);
}

/**
 * The warnings and errors in a stretch of the service's output (pino JSON lines at LOG_LEVEL=warn,
 * or anything else it printed, such as a crash's stack), one readable line each, the first
 * MAX_LOG_LINES of them and a count of the rest.
 */
export function serviceWarnings(output: string): string[] {
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  const shown = lines.slice(0, MAX_LOG_LINES).map(readable);
  return lines.length > MAX_LOG_LINES ? [...shown, `… and ${lines.length - MAX_LOG_LINES} more lines`] : shown;
}

const LEVELS: Record<number, string> = { 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

function readable(line: string): string {
  let entry: { level?: number; msg?: string; err?: { type?: string; code?: string; message?: string }; [key: string]: unknown };
  try {
    entry = JSON.parse(line) as typeof entry;
  } catch {
    return line.slice(0, 300);
  }
  const level = LEVELS[entry.level ?? 0] ?? `level ${entry.level}`;
  const error = entry.err ? ` — ${[entry.err.type, entry.err.code].filter(Boolean).join(' ')}: ${entry.err.message}` : '';
  return `${level} ${entry.msg ?? ''}${error}`.slice(0, 300);
}

/** The failures section of the report: for each row with errors or service warnings, what they were. */
export function formatFailures(rows: Array<{ scenario: string; mode: string; errors?: number; failures?: { samples: FailureSample[]; serviceLog: string[] } }>): string {
  const explained = rows.filter((row) => row.failures && (row.errors || row.failures.serviceLog.length > 0));
  if (explained.length === 0) return '';
  const sections = explained.map((row) => {
    const { samples, serviceLog } = row.failures!;
    const kinds = samples.map((s) => `  - ${s.count} × ${[s.status, s.code].filter(Boolean).join(' ') || 'error'}: ${s.message}`);
    const log = serviceLog.length ? ['  service log in these windows:', ...serviceLog.map((line) => `    ${line}`)] : ['  service log in these windows: nothing at warn or above'];
    return [`- ${row.scenario} (${row.mode}): ${row.errors ?? 0} failed requests`, ...kinds, ...log].join('\n');
  });
  return `Failures:\n${sections.join('\n')}\n`;
}
