import { spawn } from 'node:child_process';
import { appendFile } from 'node:fs/promises';

export interface CommandResult {
  stdout: string;
  ms: number;
}

/**
 * Runs a command to completion. Its output goes to `log` (appended) when given, so a long
 * build does not flood the summary; on failure the error carries the last lines of output.
 */
export async function command(cmd: string, args: string[], options: { cwd?: string; log?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CommandResult> {
  const started = performance.now();
  const child = spawn(cmd, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4000);
    if (options.log) void appendFile(options.log, chunk);
  };
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    keep(chunk);
  });
  child.stderr.on('data', keep);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} exited with ${code}${options.log ? ` (log: ${options.log})` : ''}:\n${tail}`);
  }
  return { stdout, ms: performance.now() - started };
}

/** True when the command exits 0 (its output is discarded). */
export async function succeeds(cmd: string, args: string[]): Promise<boolean> {
  return command(cmd, args).then(
    () => true,
    () => false,
  );
}
