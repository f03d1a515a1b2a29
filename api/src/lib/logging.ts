// Log format: JSON lines (one object per line, for collectors) everywhere except a developer's
// terminal, where pino-pretty makes them readable. Every line about a request carries its `reqId`.
import type { Config } from '../config.ts';

interface LogTransport {
  transport?: { target: string; options: Record<string, unknown> };
}

export function terminalLogFormat(config: Pick<Config, 'env'>, stdout: { isTTY?: boolean } = process.stdout): LogTransport {
  if (config.env !== 'development' || !stdout.isTTY) return {};
  return { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } } };
}
